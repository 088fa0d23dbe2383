//! 13.2.3.4 "Changing the encoding while parsing".

use encoding_rs::Encoding;

use super::{adjust_declared_encoding, is_utf16};

/// What [`change_the_encoding`] tells the parser to do.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum EncodingChange {
    /// Go on with the current encoding and set the confidence to
    /// [`Certain`](super::Confidence::Certain): the new encoding is the same one (step 4) or
    /// the current one is UTF-16 and cannot be wrong (step 1).
    KeepCurrent,
    /// Decode with this encoding, with the confidence
    /// [`Certain`](super::Confidence::Certain): re-parse the input from the start with it and
    /// without sniffing (step 6), or, if [`can_change_on_the_fly`] says so, switch the decoder
    /// and go on (step 5). The encoding is already adjusted (never UTF-16 or x-user-defined).
    Restart(&'static Encoding),
}

/// [Change the encoding](https://html.spec.whatwg.org/multipage/parsing.html#change-the-encoding)
/// (13.2.3.4): what to do when the tree builder meets a `<meta>` declaring `new` (see
/// [`encoding_declared_by_meta`](super::encoding_declared_by_meta)) while the input is decoded
/// with `current`.
///
/// Call it only while the confidence is [`Tentative`](super::Confidence::Tentative); under a
/// certain confidence a `<meta>` changes nothing. Either result makes the confidence certain, so
/// the parse is restarted at most once.
///
/// - Step 1: if `current` is UTF-16BE/LE, the new encoding is ignored
///   ([`EncodingChange::KeepCurrent`]).
/// - Steps 2 and 3: a new UTF-16BE/LE becomes UTF-8, a new x-user-defined windows-1252.
/// - Step 4: if that is `current`, nothing changes ([`EncodingChange::KeepCurrent`]).
/// - Steps 5 and 6: otherwise, [`EncodingChange::Restart`] with it.
///
/// ```
/// use encoding_rs::{UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};
/// use html_arena::encoding::{change_the_encoding, EncodingChange};
///
/// assert_eq!(change_the_encoding(WINDOWS_1252, UTF_8), EncodingChange::Restart(UTF_8));
/// assert_eq!(change_the_encoding(WINDOWS_1252, UTF_16LE), EncodingChange::Restart(UTF_8));
/// assert_eq!(change_the_encoding(WINDOWS_1252, X_USER_DEFINED), EncodingChange::KeepCurrent);
/// assert_eq!(change_the_encoding(UTF_16LE, UTF_8), EncodingChange::KeepCurrent);
/// ```
pub fn change_the_encoding(current: &'static Encoding, new: &'static Encoding) -> EncodingChange {
    // "If the encoding that is already being used to interpret the input stream is
    // UTF-16BE/LE, then set the confidence to certain and return. The new encoding is ignored"
    if is_utf16(current) {
        return EncodingChange::KeepCurrent;
    }
    // "If the new encoding is UTF-16BE/LE, then change it to UTF-8." "If the new encoding is
    // x-user-defined, then change it to windows-1252."
    let new = adjust_declared_encoding(new);
    // "If the new encoding is identical or equivalent to the encoding that is already being
    // used to interpret the input stream, then set the confidence to certain and return."
    if new == current {
        return EncodingChange::KeepCurrent;
    }
    // Steps 5 ("change to the new converter on the fly") and 6 ("restart the navigate
    // algorithm ... set the encoding to the new encoding and the confidence to certain").
    EncodingChange::Restart(new)
}

/// Step 5 of [change the encoding](https://html.spec.whatwg.org/multipage/parsing.html#change-the-encoding):
/// whether "all the bytes up to the last byte converted by the current decoder have the same
/// Unicode interpretations in both the current encoding and the new encoding", so the parser
/// may switch decoders on the fly instead of re-parsing.
///
/// `converted` is every byte the current decoder has consumed, from the start of the input.
/// The test is conservative: it says yes when both encodings are ASCII-compatible (every byte
/// below 0x80 is the ASCII character, outside any multi-byte sequence) and `converted` is all
/// ASCII. A no only costs a re-parse.
///
/// ```
/// use encoding_rs::{SHIFT_JIS, UTF_8, WINDOWS_1252};
/// use html_arena::encoding::can_change_on_the_fly;
///
/// let head = b"<!doctype html><html><head><meta charset=utf-8>";
/// assert!(can_change_on_the_fly(head, WINDOWS_1252, UTF_8));
/// assert!(!can_change_on_the_fly(b"<title>caf\xe9</title>", WINDOWS_1252, UTF_8));
/// assert!(!can_change_on_the_fly(head, WINDOWS_1252, encoding_rs::ISO_2022_JP));
/// assert!(can_change_on_the_fly(head, SHIFT_JIS, UTF_8));
/// ```
pub fn can_change_on_the_fly(
    converted: &[u8],
    current: &'static Encoding,
    new: &'static Encoding,
) -> bool {
    current.is_ascii_compatible() && new.is_ascii_compatible() && converted.is_ascii()
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::*;

    #[test]
    fn the_steps() {
        // Step 1: UTF-16 stays, whatever the new encoding.
        assert_eq!(
            change_the_encoding(UTF_16BE, UTF_16LE),
            EncodingChange::KeepCurrent
        );
        assert_eq!(
            change_the_encoding(UTF_16LE, GBK),
            EncodingChange::KeepCurrent
        );
        // Steps 2 to 4.
        assert_eq!(
            change_the_encoding(UTF_8, UTF_16BE),
            EncodingChange::KeepCurrent
        );
        assert_eq!(
            change_the_encoding(WINDOWS_1252, X_USER_DEFINED),
            EncodingChange::KeepCurrent
        );
        assert_eq!(
            change_the_encoding(UTF_8, X_USER_DEFINED),
            EncodingChange::Restart(WINDOWS_1252)
        );
        assert_eq!(change_the_encoding(GBK, GBK), EncodingChange::KeepCurrent);
        // Steps 5 and 6.
        assert_eq!(
            change_the_encoding(WINDOWS_1252, ISO_8859_2),
            EncodingChange::Restart(ISO_8859_2)
        );
        assert_eq!(
            change_the_encoding(WINDOWS_1252, REPLACEMENT),
            EncodingChange::Restart(REPLACEMENT)
        );
        // x-user-defined from an XML declaration (the one path that keeps it) is left.
        assert_eq!(
            change_the_encoding(X_USER_DEFINED, WINDOWS_1252),
            EncodingChange::Restart(WINDOWS_1252)
        );
    }

    #[test]
    fn on_the_fly() {
        assert!(can_change_on_the_fly(b"", WINDOWS_1252, GBK));
        assert!(can_change_on_the_fly(b"<p>plain", EUC_JP, BIG5));
        assert!(!can_change_on_the_fly(b"<p>\x80", EUC_JP, BIG5));
        assert!(!can_change_on_the_fly(b"<p>", WINDOWS_1252, REPLACEMENT));
        assert!(!can_change_on_the_fly(b"<p>", ISO_2022_JP, UTF_8));
    }
}
