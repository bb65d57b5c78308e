//! Typed requests. lichess takes the same fields as a form
//! (`application/x-www-form-urlencoded`) or as JSON, so one extractor,
//! [`Fields`], reads either into the endpoint's own serde struct; [`Params`] does
//! the same for the query string. Both read the request as flat text fields
//! (`clock.limit=300`; a nested JSON object `{"clock": {"limit": 300}}` is the
//! same field) and parse each value into the type its struct field asks for, so a
//! wrong value is refused with its field's name: `clock.limit: "abc" is not a
//! number`. An empty value is an absent one.

use std::fmt;

use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::{header, request::Parts};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde_json::Value;

use crate::http::error::ApiError;

/// A request body (form or JSON) read into `T`.
#[derive(Debug)]
pub struct Fields<T>(pub T);

/// A query string read into `T`.
#[derive(Debug)]
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Fields<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Fields<T>, ApiError> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim_start().starts_with("application/json"));
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge("the body is too large".into())
            } else {
                ApiError::BadRequest(format!("the body could not be read: {e}"))
            }
        })?;
        let fields = if is_json {
            FieldList::from_json(&body)?
        } else {
            FieldList::from_form(&body)?
        };
        fields.parse().map(Fields)
    }
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Params<T>, ApiError> {
        let query = parts.uri.query().unwrap_or_default();
        FieldList::from_form(query.as_bytes())?.parse().map(Params)
    }
}

/// A request's fields as text, in the order given.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FieldList(Vec<(String, String)>);

impl FieldList {
    /// The fields of a form body or query string (`a=1&b=x+y`).
    pub fn from_form(body: &[u8]) -> Result<FieldList, ApiError> {
        let text = std::str::from_utf8(body)
            .map_err(|_| ApiError::BadRequest("the form is not UTF-8".into()))?;
        let fields = text
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                (percent_decode(k), percent_decode(v))
            })
            .collect();
        Ok(FieldList(fields))
    }

    /// The fields of a JSON object: nested objects give dotted names, arrays
    /// comma-separated values, `null` nothing.
    pub fn from_json(body: &[u8]) -> Result<FieldList, ApiError> {
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(FieldList::default());
        }
        let value: Value = serde_json::from_slice(body)
            .map_err(|e| ApiError::BadRequest(format!("invalid JSON body: {e}")))?;
        let Value::Object(object) = value else {
            return Err(ApiError::BadRequest(
                "the JSON body must be an object of fields".into(),
            ));
        };
        let mut fields = Vec::new();
        flatten("", &Value::Object(object), &mut fields);
        Ok(FieldList(fields))
    }

    /// The value of a field, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The fields read into `T`. A `clock.` field no endpoint knows is refused
    /// by name rather than ignored: a clock silently left out is a different game.
    pub fn parse<T: DeserializeOwned>(self) -> Result<T, ApiError> {
        if let Some((name, _)) = self
            .0
            .iter()
            .find(|(k, _)| k.starts_with("clock.") && !CLOCK_FIELDS.contains(&k.as_str()))
        {
            return Err(ApiError::BadRequest(format!(
                "{name}: unknown clock field; the clock fields are {}",
                CLOCK_FIELDS.join(", ")
            )));
        }
        T::deserialize(FieldsDeserializer(self.0)).map_err(|e| ApiError::BadRequest(e.0))
    }
}

/// The clock fields the endpoints read.
const CLOCK_FIELDS: &[&str] = &[
    "clock.limit",
    "clock.increment",
    "clock.perMove",
    "clock.delay",
    "clock.delayType",
];

fn flatten(prefix: &str, value: &Value, out: &mut Vec<(String, String)>) {
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (k, v) in map {
                let name = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(&name, v, out);
            }
        }
        Value::String(s) => out.push((prefix.to_string(), s.clone())),
        Value::Array(items) => {
            let text: Vec<String> = items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                })
                .collect();
            out.push((prefix.to_string(), text.join(",")));
        }
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

/// Percent-decoding of a form field (`+` is a space); bytes that are not UTF-8
/// are replaced.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(b)) => {
                out.push(b);
                i += 2;
            }
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Why a field was refused, in words that name it.
#[derive(Debug)]
pub struct FieldError(String);

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FieldError {}

impl de::Error for FieldError {
    fn custom<M: fmt::Display>(msg: M) -> FieldError {
        FieldError(msg.to_string())
    }

    fn missing_field(field: &'static str) -> FieldError {
        FieldError(format!("{field} is required"))
    }

    fn duplicate_field(field: &'static str) -> FieldError {
        FieldError(format!("{field} is given twice"))
    }
}

/// The whole list, as a map of field names to values.
struct FieldsDeserializer(Vec<(String, String)>);

impl<'de> de::Deserializer<'de> for FieldsDeserializer {
    type Error = FieldError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
        // The last of repeated fields wins, as in most form readers.
        let mut fields: Vec<(String, String)> = Vec::with_capacity(self.0.len());
        for (k, v) in self.0 {
            fields.retain(|(seen, _)| *seen != k);
            fields.push((k, v));
        }
        visitor.visit_map(FieldsAccess {
            fields: fields.into_iter(),
            value: None,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct FieldsAccess {
    fields: std::vec::IntoIter<(String, String)>,
    value: Option<(String, String)>,
}

impl<'de> de::MapAccess<'de> for FieldsAccess {
    type Error = FieldError;

    fn next_key_seed<K: de::DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, FieldError> {
        match self.fields.next() {
            None => Ok(None),
            Some((name, value)) => {
                let key = seed.deserialize(name.clone().into_deserializer())?;
                self.value = Some((name, value));
                Ok(Some(key))
            }
        }
    }

    fn next_value_seed<V: de::DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, FieldError> {
        let (name, text) = self
            .value
            .take()
            .ok_or_else(|| FieldError("a value without a field".into()))?;
        seed.deserialize(FieldValue {
            name: &name,
            text: &text,
        })
        .map_err(|e| {
            if e.0.starts_with(name.as_str()) {
                e
            } else {
                FieldError(format!("{name}: {}", e.0))
            }
        })
    }
}

/// One field's text, parsed into whatever its struct field is.
struct FieldValue<'a> {
    name: &'a str,
    text: &'a str,
}

impl FieldValue<'_> {
    fn refuse(&self, what: &str) -> FieldError {
        FieldError(format!("{}: {:?} {what}", self.name, self.text))
    }

    fn number(&self) -> Result<f64, FieldError> {
        self.text
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite())
            .ok_or_else(|| self.refuse("is not a number"))
    }

    fn whole(&self) -> Result<f64, FieldError> {
        let n = self.number()?;
        if n.fract() != 0.0 {
            return Err(self.refuse("is not a whole number"));
        }
        Ok(n)
    }

    fn unsigned<T: TryFrom<u64>>(&self) -> Result<T, FieldError> {
        let n = self.whole()?;
        if n < 0.0 || n > u64::MAX as f64 {
            return Err(self.refuse("must not be negative"));
        }
        T::try_from(n as u64).map_err(|_| self.refuse("is too large"))
    }

    fn signed<T: TryFrom<i64>>(&self) -> Result<T, FieldError> {
        let n = self.whole()?;
        if n.abs() > i64::MAX as f64 {
            return Err(self.refuse("is too large"));
        }
        T::try_from(n as i64).map_err(|_| self.refuse("is out of range"))
    }
}

macro_rules! unsigned {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
            visitor.$visit(self.unsigned::<$t>()?)
        }
    )*};
}

macro_rules! signed {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
            visitor.$visit(self.signed::<$t>()?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for FieldValue<'_> {
    type Error = FieldError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
        visitor.visit_str(self.text)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
        match self.text.trim().to_ascii_lowercase().as_str() {
            "true" | "1" => visitor.visit_bool(true),
            "false" | "0" => visitor.visit_bool(false),
            _ => Err(self.refuse("must be true or false")),
        }
    }

    unsigned!(deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);
    signed!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16,
        deserialize_i32 visit_i32 i32, deserialize_i64 visit_i64 i64);

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
        visitor.visit_f32(self.number()? as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
        visitor.visit_f64(self.number()?)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, FieldError> {
        if self.text.trim().is_empty() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        visitor: V,
    ) -> Result<V::Value, FieldError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, FieldError> {
        let text = self.text.trim();
        if !variants.contains(&text) {
            return Err(self.refuse(&format!("must be {}", one_of(variants))));
        }
        visitor.visit_enum(text.into_deserializer())
    }

    serde::forward_to_deserialize_any! {
        i128 u128 char str string bytes byte_buf unit unit_struct seq tuple
        tuple_struct map struct identifier ignored_any
    }
}

/// `a, b or c`.
pub fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Colour {
        White,
        Black,
        Random,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    struct Challenge {
        #[serde(rename = "clock.limit")]
        limit: Option<u64>,
        #[serde(default)]
        rated: bool,
        color: Option<Colour>,
        fen: Option<String>,
    }

    fn form(text: &str) -> Result<Challenge, ApiError> {
        FieldList::from_form(text.as_bytes()).unwrap().parse()
    }

    fn json(text: &str) -> Result<Challenge, ApiError> {
        FieldList::from_json(text.as_bytes())?.parse()
    }

    #[test]
    fn a_form_and_json_give_the_same_request() {
        let expected = Challenge {
            limit: Some(300),
            rated: true,
            color: Some(Colour::Black),
            fen: Some("8/8 w".into()),
        };
        assert_eq!(
            form("clock.limit=300&rated=True&color=black&fen=8%2F8+w").unwrap(),
            expected
        );
        assert_eq!(
            json(r#"{"clock": {"limit": 300}, "rated": true, "color": "black", "fen": "8/8 w"}"#)
                .unwrap(),
            expected
        );
        assert_eq!(
            json(r#"{"clock.limit": "300", "rated": "true", "color": "black", "fen": "8/8 w"}"#)
                .unwrap(),
            expected
        );
    }

    #[test]
    fn a_wrong_value_is_refused_with_its_fields_name() {
        let e = form("clock.limit=abc").unwrap_err().to_string();
        assert_eq!(e, r#"clock.limit: "abc" is not a number"#);
        let e = form("clock.limit=-5").unwrap_err().to_string();
        assert!(e.starts_with("clock.limit:"), "{e}");
        let e = form("clock.limit=1.5").unwrap_err().to_string();
        assert!(e.contains("whole"), "{e}");
        let e = form("color=green").unwrap_err().to_string();
        assert_eq!(e, r#"color: "green" must be white, black or random"#);
        let e = form("rated=maybe").unwrap_err().to_string();
        assert_eq!(e, r#"rated: "maybe" must be true or false"#);
        let e = json("[1,2]").unwrap_err().to_string();
        assert!(e.contains("object"), "{e}");
    }

    #[test]
    fn an_empty_value_is_an_absent_one_and_unknown_fields_are_ignored() {
        let parsed = form("fen=&clock.limit=&other=1").unwrap();
        assert_eq!(parsed.fen, None);
        assert_eq!(parsed.limit, None);
        assert!(!parsed.rated);
        assert_eq!(json("").unwrap(), form("").unwrap());
    }

    #[test]
    fn repeated_fields_take_the_last_value() {
        assert_eq!(form("clock.limit=1&clock.limit=2").unwrap().limit, Some(2));
    }

    #[test]
    fn required_fields_are_named() {
        #[derive(Debug, Deserialize)]
        #[allow(dead_code)]
        struct Login {
            username: String,
        }
        let e = FieldList::default()
            .parse::<Login>()
            .unwrap_err()
            .to_string();
        assert_eq!(e, "username is required");
    }
}
