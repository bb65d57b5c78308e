//! Dates and times for the `Date`, `UTCDate` and `UTCTime` tags (`YYYY.MM.DD`,
//! `HH:MM:SS`), from Unix time, in the proleptic Gregorian calendar, UTC.

/// The date `days` after 1970-01-01 as (year, month, day), by counting 400-year
/// eras of 146097 days from 0000-03-01 (so that leap days fall at the end of a
/// year).
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468; // days since 0000-03-01
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097); // [0, 146096]
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153; // 0 = March
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The UTC date of a moment `unix_ms` ms after the epoch, as a PGN date.
pub fn date_tag(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    format!("{y:04}.{m:02}.{d:02}")
}

/// The UTC time of day of a moment `unix_ms` ms after the epoch, `HH:MM:SS`.
pub fn time_tag(unix_ms: i64) -> String {
    let secs = unix_ms.div_euclid(1000).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_across_leap_days_and_the_epoch() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(10_957), (2000, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(civil_from_days(20_454), (2026, 1, 1));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }

    #[test]
    fn tags_of_a_moment() {
        // 2026-12-01 07:15:26.5 UTC.
        let at = 1_796_109_326_500;
        assert_eq!(date_tag(at), "2026.12.01");
        assert_eq!(time_tag(at), "07:15:26");
        assert_eq!(
            (date_tag(0), time_tag(0)),
            ("1970.01.01".into(), "00:00:00".into())
        );
        assert_eq!(date_tag(-1), "1969.12.31");
    }
}
