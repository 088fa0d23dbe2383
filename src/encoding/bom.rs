//! The Encoding Standard's [BOM sniff](https://encoding.spec.whatwg.org/#bom-sniff), step 1 of
//! the encoding sniffing algorithm.

use encoding_rs::Encoding;

/// The Encoding Standard's [BOM sniff](https://encoding.spec.whatwg.org/#bom-sniff): the
/// encoding a leading byte order mark names, with the BOM's length in bytes (to skip before
/// decoding), or `None` if `bytes` starts with no BOM.
///
/// `EF BB BF` is UTF-8, `FE FF` UTF-16BE and `FF FE` UTF-16LE. Give the whole input, or at
/// least its first three bytes: a shorter prefix of a longer stream can miss a UTF-8 BOM.
///
/// ```
/// use html_arena::encoding::bom_sniff;
///
/// assert_eq!(bom_sniff(b"\xEF\xBB\xBF<p>"), Some((encoding_rs::UTF_8, 3)));
/// assert_eq!(bom_sniff(b"\xFF\xFE<\0p\0"), Some((encoding_rs::UTF_16LE, 2)));
/// assert_eq!(bom_sniff(b"<p>"), None);
/// ```
pub fn bom_sniff(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
    // "For each of the rows in the table below, starting with the first one and going down, if
    // BOM starts with the bytes given in the first column, then return the encoding given in
    // the cell in the second column of that row."
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        Some((encoding_rs::UTF_8, 3))
    } else if bytes.starts_with(&[0xFE, 0xFF]) {
        Some((encoding_rs::UTF_16BE, 2))
    } else if bytes.starts_with(&[0xFF, 0xFE]) {
        Some((encoding_rs::UTF_16LE, 2))
    } else {
        // "Otherwise, return null."
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_boms() {
        assert_eq!(bom_sniff(b"\xEF\xBB\xBFx"), Some((encoding_rs::UTF_8, 3)));
        assert_eq!(bom_sniff(b"\xFE\xFF\0x"), Some((encoding_rs::UTF_16BE, 2)));
        assert_eq!(bom_sniff(b"\xFF\xFEx\0"), Some((encoding_rs::UTF_16LE, 2)));
    }

    #[test]
    fn partial_and_absent_boms() {
        assert_eq!(bom_sniff(b""), None);
        assert_eq!(bom_sniff(b"\xEF\xBB"), None);
        assert_eq!(bom_sniff(b"\xFE"), None);
        assert_eq!(bom_sniff(b"\xBB\xBF"), None);
        // UTF-32LE's BOM starts with UTF-16LE's; UTF-32 is not supported, so it is UTF-16LE.
        assert_eq!(bom_sniff(b"\xFF\xFE\0\0"), Some((encoding_rs::UTF_16LE, 2)));
    }
}
