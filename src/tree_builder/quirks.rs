//! The DOCTYPE tables of the "initial" insertion mode (13.2.6.4.1): which DOCTYPEs put the
//! document in quirks mode or limited-quirks mode.

use crate::dom::QuirksMode;
use crate::tokenizer::Doctype;

/// "The public identifier is set to" one of these (compared in ASCII lowercase).
const QUIRKS_PUBLIC_IDS: &[&str] = &[
    "-//w3o//dtd w3 html strict 3.0//en//",
    "-/w3c/dtd html 4.0 transitional/en",
    "html",
];

/// "The system identifier is set to" this.
const QUIRKS_SYSTEM_ID: &str = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd";

/// "The public identifier starts with" one of these.
const QUIRKS_PUBLIC_PREFIXES: &[&str] = &[
    "+//silmaril//dtd html pro v0r11 19970101//",
    "-//as//dtd html 3.0 aswedit + extensions//",
    "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
    "-//ietf//dtd html 2.0 level 1//",
    "-//ietf//dtd html 2.0 level 2//",
    "-//ietf//dtd html 2.0 strict level 1//",
    "-//ietf//dtd html 2.0 strict level 2//",
    "-//ietf//dtd html 2.0 strict//",
    "-//ietf//dtd html 2.0//",
    "-//ietf//dtd html 2.1e//",
    "-//ietf//dtd html 3.0//",
    "-//ietf//dtd html 3.2 final//",
    "-//ietf//dtd html 3.2//",
    "-//ietf//dtd html 3//",
    "-//ietf//dtd html level 0//",
    "-//ietf//dtd html level 1//",
    "-//ietf//dtd html level 2//",
    "-//ietf//dtd html level 3//",
    "-//ietf//dtd html strict level 0//",
    "-//ietf//dtd html strict level 1//",
    "-//ietf//dtd html strict level 2//",
    "-//ietf//dtd html strict level 3//",
    "-//ietf//dtd html strict//",
    "-//ietf//dtd html//",
    "-//metrius//dtd metrius presentational//",
    "-//microsoft//dtd internet explorer 2.0 html strict//",
    "-//microsoft//dtd internet explorer 2.0 html//",
    "-//microsoft//dtd internet explorer 2.0 tables//",
    "-//microsoft//dtd internet explorer 3.0 html strict//",
    "-//microsoft//dtd internet explorer 3.0 html//",
    "-//microsoft//dtd internet explorer 3.0 tables//",
    "-//netscape comm. corp.//dtd html//",
    "-//netscape comm. corp.//dtd strict html//",
    "-//o'reilly and associates//dtd html 2.0//",
    "-//o'reilly and associates//dtd html extended 1.0//",
    "-//o'reilly and associates//dtd html extended relaxed 1.0//",
    "-//sq//dtd html 2.0 hotmetal + extensions//",
    "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
    "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
    "-//spyglass//dtd html 2.0 extended//",
    "-//sun microsystems corp.//dtd hotjava html//",
    "-//sun microsystems corp.//dtd hotjava strict html//",
    "-//w3c//dtd html 3 1995-03-24//",
    "-//w3c//dtd html 3.2 draft//",
    "-//w3c//dtd html 3.2 final//",
    "-//w3c//dtd html 3.2//",
    "-//w3c//dtd html 3.2s draft//",
    "-//w3c//dtd html 4.0 frameset//",
    "-//w3c//dtd html 4.0 transitional//",
    "-//w3c//dtd html experimental 19960712//",
    "-//w3c//dtd html experimental 970421//",
    "-//w3c//dtd w3 html//",
    "-//w3o//dtd w3 html 3.0//",
    "-//webtechs//dtd mozilla html 2.0//",
    "-//webtechs//dtd mozilla html//",
];

/// Prefixes that mean quirks mode when the system identifier is "missing or the empty
/// string", and limited-quirks mode when it is "neither missing nor the empty string".
const HTML_401_PREFIXES: &[&str] = &[
    "-//w3c//dtd html 4.01 frameset//",
    "-//w3c//dtd html 4.01 transitional//",
];

/// Prefixes that always mean limited-quirks mode.
const LIMITED_QUIRKS_PREFIXES: &[&str] = &[
    "-//w3c//dtd xhtml 1.0 frameset//",
    "-//w3c//dtd xhtml 1.0 transitional//",
];

/// Whether the DOCTYPE is a parse error: its name is not `html`, or it has a public
/// identifier, or a system identifier other than `about:legacy-compat`.
pub(crate) fn is_doctype_error(d: &Doctype<'_>) -> bool {
    d.name != Some("html")
        || d.public_id.is_some()
        || d.system_id.is_some_and(|s| s != "about:legacy-compat")
}

/// The document mode a DOCTYPE token sets.
pub(crate) fn quirks_mode_for(d: &Doctype<'_>) -> QuirksMode {
    if d.force_quirks || d.name != Some("html") {
        return QuirksMode::Quirks;
    }
    let public = d.public_id.map(str::to_ascii_lowercase);
    let system = d.system_id.map(str::to_ascii_lowercase);
    let public = public.as_deref();
    // The two HTML 4.01 conditions name "missing or the empty string" explicitly (the
    // general remark that "a system identifier whose value is the empty string is not
    // considered missing" does not change them).
    let system_missing_or_empty = system.as_deref().is_none_or(str::is_empty);
    let starts =
        |prefixes: &[&str]| public.is_some_and(|p| prefixes.iter().any(|x| p.starts_with(x)));
    if public.is_some_and(|p| QUIRKS_PUBLIC_IDS.contains(&p))
        || system.as_deref() == Some(QUIRKS_SYSTEM_ID)
        || starts(QUIRKS_PUBLIC_PREFIXES)
        || (system_missing_or_empty && starts(HTML_401_PREFIXES))
    {
        return QuirksMode::Quirks;
    }
    if starts(LIMITED_QUIRKS_PREFIXES) || (!system_missing_or_empty && starts(HTML_401_PREFIXES)) {
        return QuirksMode::LimitedQuirks;
    }
    QuirksMode::NoQuirks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tokenizer::Span;

    fn doctype<'a>(name: &'a str, public: Option<&'a str>, system: Option<&'a str>) -> Doctype<'a> {
        Doctype {
            name: Some(name),
            public_id: public,
            system_id: system,
            force_quirks: false,
            span: Span::default(),
        }
    }

    #[test]
    fn modes() {
        assert_eq!(
            quirks_mode_for(&doctype("html", None, None)),
            QuirksMode::NoQuirks
        );
        assert_eq!(
            quirks_mode_for(&doctype("htm", None, None)),
            QuirksMode::Quirks
        );
        assert_eq!(
            quirks_mode_for(&doctype(
                "html",
                Some("-//W3C//DTD HTML 4.01 Transitional//EN"),
                None
            )),
            QuirksMode::Quirks
        );
        assert_eq!(
            quirks_mode_for(&doctype(
                "html",
                Some("-//W3C//DTD HTML 4.01 Transitional//EN"),
                Some("")
            )),
            QuirksMode::Quirks
        );
        assert_eq!(
            quirks_mode_for(&doctype(
                "html",
                Some("-//W3C//DTD XHTML 1.0 Strict//EN"),
                None
            )),
            QuirksMode::NoQuirks
        );
        assert!(!is_doctype_error(&doctype(
            "html",
            None,
            Some("about:legacy-compat")
        )));
    }
}
