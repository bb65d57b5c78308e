//! Words shown to the learner, in every language the lessons are written in.
//!
//! A text is one struct with a field per language rather than a map, so that a
//! lesson missing a translation does not parse, and the compiler lists every place
//! a new language must be added.

use serde::{Deserialize, Serialize};

/// A language the lessons are written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Lang {
    /// English.
    #[serde(rename = "en")]
    En,
    /// Simplified Chinese (简体中文).
    #[serde(rename = "zh-Hans")]
    ZhHans,
    /// Traditional Chinese (繁體中文).
    #[serde(rename = "zh-Hant")]
    ZhHant,
}

impl Lang {
    /// Every language, English first.
    pub const ALL: [Lang; 3] = [Lang::En, Lang::ZhHans, Lang::ZhHant];

    /// The BCP 47 tag: `en`, `zh-Hans`, `zh-Hant`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhHans => "zh-Hans",
            Lang::ZhHant => "zh-Hant",
        }
    }

    /// The language named by a BCP 47 tag (`zh-CN` and `zh-TW` read as the scripts
    /// they use), or `None`.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        match tag {
            "en" => Some(Lang::En),
            "zh-Hans" | "zh-CN" | "zh-SG" => Some(Lang::ZhHans),
            "zh-Hant" | "zh-TW" | "zh-HK" | "zh-MO" => Some(Lang::ZhHant),
            _ if tag.starts_with("en-") => Some(Lang::En),
            _ => None,
        }
    }
}

/// The same words in English, Simplified and Traditional Chinese.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    #[serde(rename = "zh-Hans")]
    pub zh_hans: String,
    /// Traditional Chinese.
    #[serde(rename = "zh-Hant")]
    pub zh_hant: String,
}

impl Text {
    /// A text from its three translations.
    pub fn new(
        en: impl Into<String>,
        zh_hans: impl Into<String>,
        zh_hant: impl Into<String>,
    ) -> Text {
        Text {
            en: en.into(),
            zh_hans: zh_hans.into(),
            zh_hant: zh_hant.into(),
        }
    }

    /// The words in `lang`.
    pub fn get(&self, lang: Lang) -> &str {
        match lang {
            Lang::En => &self.en,
            Lang::ZhHans => &self.zh_hans,
            Lang::ZhHant => &self.zh_hant,
        }
    }

    /// The first language whose words are blank, if any.
    pub fn missing(&self) -> Option<Lang> {
        Lang::ALL
            .into_iter()
            .find(|&l| self.get(l).trim().is_empty())
    }
}
