//! The suggested default encodings by locale (step 9 of the encoding sniffing algorithm).

use encoding_rs::Encoding;

/// The specification's suggested default encoding for a user's locale (step 9 of the
/// [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)),
/// for compatibility with legacy content: windows-1251 for Russian, Shift_JIS for Japanese, GBK
/// for Simplified Chinese, Big5 for Traditional Chinese, windows-1252 for "all other locales",
/// and so on.
///
/// `locale` is a BCP 47 language tag (`ja`, `ru-RU`, `zh-Hant-TW`), matched ignoring ASCII
/// case; `_` is accepted in place of `-` and anything from a `.` or `@` on is ignored, so POSIX
/// locale names such as `ja_JP.UTF-8` work too. Chinese is decided by the script subtag
/// (`Hans`, `Hant`) when there is one, else by the region (`CN`, `SG` / `HK`, `MO`, `TW`); a
/// bare `zh` is not in the table and gets windows-1252. Use the result as
/// [`SniffOptions::fallback`](super::SniffOptions::fallback).
///
/// ```
/// use html_arena::encoding::default_encoding_for_locale;
///
/// assert_eq!(default_encoding_for_locale("ja"), encoding_rs::SHIFT_JIS);
/// assert_eq!(default_encoding_for_locale("ru-RU"), encoding_rs::WINDOWS_1251);
/// assert_eq!(default_encoding_for_locale("zh-Hant"), encoding_rs::BIG5);
/// assert_eq!(default_encoding_for_locale("zh_CN.GB2312"), encoding_rs::GBK);
/// assert_eq!(default_encoding_for_locale("en-US"), encoding_rs::WINDOWS_1252);
/// ```
pub fn default_encoding_for_locale(locale: &str) -> &'static Encoding {
    let tag = locale.split(['.', '@']).next().unwrap_or_default();
    let mut subtags = tag.split(['-', '_']);
    let language = subtags.next().unwrap_or_default().to_ascii_lowercase();
    match language.as_str() {
        "ar" => encoding_rs::WINDOWS_1256,  // Arabic
        "az" => encoding_rs::WINDOWS_1254,  // Azeri
        "ba" => encoding_rs::WINDOWS_1251,  // Bashkir
        "be" => encoding_rs::WINDOWS_1251,  // Belarusian
        "bg" => encoding_rs::WINDOWS_1251,  // Bulgarian
        "cs" => encoding_rs::WINDOWS_1250,  // Czech
        "el" => encoding_rs::ISO_8859_7,    // Greek
        "et" => encoding_rs::WINDOWS_1257,  // Estonian
        "fa" => encoding_rs::WINDOWS_1256,  // Persian
        "he" => encoding_rs::WINDOWS_1255,  // Hebrew
        "hr" => encoding_rs::WINDOWS_1250,  // Croatian
        "hu" => encoding_rs::ISO_8859_2,    // Hungarian
        "ja" => encoding_rs::SHIFT_JIS,     // Japanese
        "kk" => encoding_rs::WINDOWS_1251,  // Kazakh
        "ko" => encoding_rs::EUC_KR,        // Korean
        "ku" => encoding_rs::WINDOWS_1254,  // Kurdish
        "ky" => encoding_rs::WINDOWS_1251,  // Kyrgyz
        "lt" => encoding_rs::WINDOWS_1257,  // Lithuanian
        "lv" => encoding_rs::WINDOWS_1257,  // Latvian
        "mk" => encoding_rs::WINDOWS_1251,  // Macedonian
        "pl" => encoding_rs::ISO_8859_2,    // Polish
        "ru" => encoding_rs::WINDOWS_1251,  // Russian
        "sah" => encoding_rs::WINDOWS_1251, // Yakut
        "sk" => encoding_rs::WINDOWS_1250,  // Slovak
        "sl" => encoding_rs::ISO_8859_2,    // Slovenian
        "sr" => encoding_rs::WINDOWS_1251,  // Serbian
        "tg" => encoding_rs::WINDOWS_1251,  // Tajik
        "th" => encoding_rs::WINDOWS_874,   // Thai
        "tr" => encoding_rs::WINDOWS_1254,  // Turkish
        "tt" => encoding_rs::WINDOWS_1251,  // Tatar
        "uk" => encoding_rs::WINDOWS_1251,  // Ukrainian
        "vi" => encoding_rs::WINDOWS_1258,  // Vietnamese
        "zh" => chinese(subtags).unwrap_or(encoding_rs::WINDOWS_1252),
        // "All other locales"
        _ => encoding_rs::WINDOWS_1252,
    }
}

/// "zh-Hans, zh-CN, zh-SG: GBK"; "zh-Hant, zh-HK, zh-MO, zh-TW: Big5". The script subtag (four
/// letters, right after the language or an extended language subtag) wins over the region.
fn chinese<'a>(subtags: impl Iterator<Item = &'a str>) -> Option<&'static Encoding> {
    let mut region = None;
    for subtag in subtags {
        match subtag.to_ascii_lowercase().as_str() {
            "hans" => return Some(encoding_rs::GBK),
            "hant" => return Some(encoding_rs::BIG5),
            "cn" | "sg" if region.is_none() => region = Some(encoding_rs::GBK),
            "hk" | "mo" | "tw" if region.is_none() => region = Some(encoding_rs::BIG5),
            // A variant or extension ends the part where script and region can be.
            other if other.len() > 4 || other.len() == 1 => break,
            _ => {}
        }
    }
    region
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default(locale: &str) -> &'static str {
        default_encoding_for_locale(locale).name()
    }

    #[test]
    fn the_table() {
        let table = [
            ("ar", "windows-1256"),
            ("az", "windows-1254"),
            ("ba", "windows-1251"),
            ("be", "windows-1251"),
            ("bg", "windows-1251"),
            ("cs", "windows-1250"),
            ("el", "ISO-8859-7"),
            ("et", "windows-1257"),
            ("fa", "windows-1256"),
            ("he", "windows-1255"),
            ("hr", "windows-1250"),
            ("hu", "ISO-8859-2"),
            ("ja", "Shift_JIS"),
            ("kk", "windows-1251"),
            ("ko", "EUC-KR"),
            ("ku", "windows-1254"),
            ("ky", "windows-1251"),
            ("lt", "windows-1257"),
            ("lv", "windows-1257"),
            ("mk", "windows-1251"),
            ("pl", "ISO-8859-2"),
            ("ru", "windows-1251"),
            ("sah", "windows-1251"),
            ("sk", "windows-1250"),
            ("sl", "ISO-8859-2"),
            ("sr", "windows-1251"),
            ("tg", "windows-1251"),
            ("th", "windows-874"),
            ("tr", "windows-1254"),
            ("tt", "windows-1251"),
            ("uk", "windows-1251"),
            ("vi", "windows-1258"),
            ("zh-Hans", "GBK"),
            ("zh-CN", "GBK"),
            ("zh-SG", "GBK"),
            ("zh-Hant", "Big5"),
            ("zh-HK", "Big5"),
            ("zh-MO", "Big5"),
            ("zh-TW", "Big5"),
            ("en", "windows-1252"),
            ("de-CH", "windows-1252"),
        ];
        for (locale, encoding) in table {
            assert_eq!(default(locale), encoding, "{locale}");
        }
    }

    #[test]
    fn tag_forms() {
        assert_eq!(default("JA-jp"), "Shift_JIS");
        assert_eq!(default("ja_JP.eucJP"), "Shift_JIS");
        assert_eq!(default("sr_RS@latin"), "windows-1251");
        assert_eq!(default("zh-Hant-CN"), "Big5");
        assert_eq!(default("zh-Hans-TW"), "GBK");
        assert_eq!(default("zh-cmn-Hans-CN"), "GBK");
        assert_eq!(default("zh-yue-HK"), "Big5");
        assert_eq!(default("ZH_tw"), "Big5");
        assert_eq!(default("zh"), "windows-1252");
        assert_eq!(default("zh-x-cn"), "windows-1252"); // private use, not a region
        assert_eq!(default(""), "windows-1252");
        assert_eq!(default("-"), "windows-1252");
        assert_eq!(default("rus"), "windows-1252");
    }
}
