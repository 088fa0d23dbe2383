//! Bytes in (13.2.3 "The input byte stream"): the options' encodings, the wait for enough bytes
//! to sniff, decoding into the [`Pipeline`], and 13.2.3.4 "Changing the encoding while
//! parsing".
//!
//! [`Decoding::feed`] is shared by [`Document::parse_bytes`](crate::Document::parse_bytes)
//! (the whole input at once) and the byte-fed [`Parser`](super::Parser) ([`ByteInput`]): it
//! decodes a step of text at a time and, after each step, asks the tree builder whether a
//! `<meta>` declared an encoding while the confidence was tentative. Either caller starts over
//! from the bytes when it answers [`Fed::Restart`]; the streaming one keeps the bytes for that
//! until the confidence is certain.

use encoding_rs::{CoderResult, Decoder, Encoding};

use super::{ParseOptions, Pipeline};
use crate::encoding::{
    Confidence, EncodingChange, EncodingChoice, EncodingError, EncodingOption, EncodingSource,
    PRESCAN_LIMIT, Sniffed, can_change_on_the_fly, change_the_encoding, sniff_resolved,
};

/// How much text is decoded and parsed at a time while the confidence is tentative: a
/// restart throws away at most this much parsing done after the `<meta>`.
const TENTATIVE_STEP: usize = 8 * 1024;

/// How much text is decoded and parsed at a time otherwise (the decoder's output buffer).
const STEP: usize = 64 * 1024;

/// The encodings [`ParseOptions`] names, checked.
#[derive(Copy, Clone, Debug)]
pub(super) struct EncodingOptions {
    user_override: Option<&'static Encoding>,
    transport: Option<&'static Encoding>,
    fallback: Option<&'static Encoding>,
    detect: bool,
}

impl EncodingOptions {
    /// Resolves the labels in `options`.
    ///
    /// # Errors
    ///
    /// [`EncodingError::UnknownLabel`] for a label that is not an Encoding Standard label.
    pub(super) fn new(options: &ParseOptions) -> Result<EncodingOptions, EncodingError> {
        let resolve = |label: &Option<String>, option| {
            label
                .as_deref()
                .map(|label| EncodingChoice::Label(label).resolve(option))
                .transpose()
        };
        let detect = options.detect_encoding;
        Ok(EncodingOptions {
            user_override: resolve(&options.override_encoding, EncodingOption::UserOverride)?,
            transport: resolve(&options.transport_encoding, EncodingOption::Transport)?,
            fallback: resolve(&options.fallback_encoding, EncodingOption::Fallback)?,
            detect,
        })
    }

    /// The encoding sniffing algorithm (13.2.3.2) on the whole input.
    pub(super) fn sniff(&self, bytes: &[u8]) -> Sniffed {
        self.sniff_with(bytes, self.detect)
    }

    /// The encoding sniffing algorithm on the first bytes of an input that goes on, or `None`
    /// to wait for the end (step 3: "The user agent may wait for more bytes of the resource to
    /// be available").
    ///
    /// Give it at least [`PRESCAN_LIMIT`] bytes, all the prescan reads, so that the answer is
    /// the one the whole input would give: the BOM, the options and the prescan see the same
    /// bytes. Detection (step 8: is it all valid UTF-8? else the frequency-based guess) reads
    /// every byte, so when it would run, the answer is to wait for the end: then any chunking
    /// gives the encoding, and so the document, that the whole input gives. (The bytes would
    /// be kept anyway, since the confidence in a detected encoding is tentative, so waiting
    /// costs no memory; the parse just happens in [`finish`](super::Parser::finish).)
    fn sniff_early(&self, bytes: &[u8]) -> Option<Sniffed> {
        let sniffed = self.sniff_with(bytes, false);
        if self.detect && sniffed.source == EncodingSource::Default {
            return None;
        }
        Some(sniffed)
    }

    fn sniff_with(&self, bytes: &[u8], detect: bool) -> Sniffed {
        sniff_resolved(
            bytes,
            self.user_override,
            self.transport,
            self.fallback,
            detect,
        )
    }
}

/// What [`Decoding::feed`] leaves the caller to do.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[must_use]
pub(super) enum Fed {
    /// The bytes are parsed.
    Done,
    /// Step 6 of "change the encoding": start over with this encoding and the confidence
    /// certain. The pipeline holds a parse to throw away.
    Restart(&'static Encoding),
}

/// A decoder feeding a [`Pipeline`], with its encoding and the confidence in it.
pub(super) struct Decoding {
    decoder: Decoder,
    pub(super) encoding: &'static Encoding,
    pub(super) confidence: Confidence,
    /// The decoded text of the current step.
    text: String,
}

impl Decoding {
    /// Starts decoding with `encoding` (the BOM, if any, is skipped by the caller) and tells
    /// the pipeline's tree builder whether to report `<meta>` declarations.
    pub(super) fn start(
        encoding: &'static Encoding,
        confidence: Confidence,
        pipeline: &mut Pipeline,
    ) -> Decoding {
        pipeline.builder.encoding_tentative = confidence == Confidence::Tentative;
        Decoding {
            // "decode": the BOM was sniffed already (step 1 of the sniffing algorithm), and a
            // restart or a switch happens only without one (a BOM makes the confidence
            // certain).
            decoder: encoding.new_decoder_without_bom_handling(),
            encoding,
            confidence,
            text: String::new(),
        }
    }

    /// Decodes `bytes` and parses the text, a step at a time; with `last`, the input ends
    /// after them. Malformed sequences become U+FFFD, as the Encoding Standard's decoders say
    /// (the replacement encoding gives one U+FFFD for the whole input, then nothing).
    ///
    /// `history` is every byte of the input from its start, ending with `bytes`; it is read
    /// only when a `<meta>` declares an encoding (to see whether the decoder can be switched
    /// on the fly), so a caller whose confidence is not tentative may pass an empty slice.
    pub(super) fn feed(
        &mut self,
        pipeline: &mut Pipeline,
        bytes: &[u8],
        history: &[u8],
        last: bool,
    ) -> Fed {
        let mut rest = bytes;
        loop {
            let step = if self.confidence == Confidence::Tentative {
                TENTATIVE_STEP
            } else {
                STEP
            };
            self.text.clear();
            self.text.reserve(step);
            let (result, read, _) = self.decoder.decode_to_string(rest, &mut self.text, last);
            rest = rest.get(read..).unwrap_or_default();
            pipeline.feed(&self.text);
            let input_empty = result == CoderResult::InputEmpty;
            if input_empty && last {
                // A `<meta>` may still be processed at the end of the input.
                pipeline.end();
            }
            if let Some(declared) = pipeline.builder.declared_encoding.take() {
                // Every byte converted so far: `history` without what is left of `bytes`.
                let converted = history.len().saturating_sub(rest.len());
                let converted = history.get(..converted).unwrap_or_default();
                if let Some(encoding) = self.change_the_encoding(declared, converted) {
                    return Fed::Restart(encoding);
                }
            }
            if input_empty {
                return Fed::Done;
            }
        }
    }

    /// 13.2.3.4 "Changing the encoding while parsing", for a `<meta>` that declared `new`
    /// while the confidence was tentative; `converted` is every byte decoded so far. Returns
    /// the encoding to start over with (step 6), or `None` to go on.
    fn change_the_encoding(
        &mut self,
        new: &'static Encoding,
        converted: &[u8],
    ) -> Option<&'static Encoding> {
        // Either way the confidence ends up certain, so this happens at most once per parse.
        self.confidence = Confidence::Certain;
        match change_the_encoding(self.encoding, new) {
            // Steps 1 and 4: "set the confidence to certain and return".
            EncodingChange::KeepCurrent => None,
            // Step 5: "If all the bytes up to the last byte converted by the current decoder
            // have the same Unicode interpretations in both the current encoding and the new
            // encoding ... the user agent may change to the new converter for the encoding on
            // the fly." Everything parsed so far is what the new encoding gives, so going on
            // with a new decoder is the same as starting over.
            EncodingChange::Restart(new)
                if can_change_on_the_fly(converted, self.encoding, new) =>
            {
                self.decoder = new.new_decoder_without_bom_handling();
                self.encoding = new;
                None
            }
            // Step 6: "restart ... skip the encoding sniffing algorithm and instead just set
            // the encoding to the new encoding and the confidence to certain"; the bytes are
            // "re-parsed from memory".
            EncodingChange::Restart(new) => Some(new),
        }
    }
}

/// The byte input of a streaming [`Parser`](super::Parser).
pub(super) struct ByteInput {
    options: EncodingOptions,
    /// `None` while waiting for enough bytes to sniff.
    decoding: Option<Decoding>,
    /// Sniffing waits for the end of the input (detection reads every byte).
    sniff_at_end: bool,
    /// The bytes written so far, kept while sniffing and while the confidence is tentative:
    /// a restart decodes them again.
    kept: Vec<u8>,
    /// The input has ended.
    ended: bool,
}

impl ByteInput {
    pub(super) fn new(options: EncodingOptions) -> ByteInput {
        ByteInput {
            options,
            decoding: None,
            sniff_at_end: false,
            kept: Vec::new(),
            ended: false,
        }
    }

    /// The next chunk of bytes.
    pub(super) fn write(&mut self, pipeline: &mut Pipeline, chunk: &[u8]) {
        if self.ended {
            return;
        }
        match &mut self.decoding {
            None => {
                self.kept.extend_from_slice(chunk);
                if self.sniff_at_end || self.kept.len() < PRESCAN_LIMIT {
                    return;
                }
                match self.options.sniff_early(&self.kept) {
                    Some(sniffed) => self.start(pipeline, sniffed, false),
                    None => self.sniff_at_end = true,
                }
            }
            Some(decoding) if decoding.confidence == Confidence::Tentative => {
                self.kept.extend_from_slice(chunk);
                let fed = decoding.feed(pipeline, chunk, &self.kept, false);
                self.after(pipeline, fed, false);
            }
            Some(decoding) => {
                // Certain: no `<meta>` can change the encoding any more.
                let _ = decoding.feed(pipeline, chunk, &[], false);
            }
        }
    }

    /// Whether the parse may still start over: the bytes are held for sniffing, or decoded
    /// with a tentative confidence.
    pub(super) fn may_restart(&self) -> bool {
        self.decoding
            .as_ref()
            .is_none_or(|d| d.confidence == Confidence::Tentative)
    }

    /// Ends the input; returns the encoding and the confidence.
    pub(super) fn finish(mut self, pipeline: &mut Pipeline) -> (&'static Encoding, Confidence) {
        self.end(pipeline);
        self.outcome()
    }

    /// The encoding and the confidence (UTF-8, irrelevant, before any byte was decoded).
    pub(super) fn outcome(&self) -> (&'static Encoding, Confidence) {
        match &self.decoding {
            Some(d) => (d.encoding, d.confidence),
            None => (encoding_rs::UTF_8, Confidence::Irrelevant),
        }
    }

    /// Ends the input (once; later calls do nothing).
    pub(super) fn end(&mut self, pipeline: &mut Pipeline) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        match &mut self.decoding {
            None => {
                let sniffed = self.options.sniff(&self.kept);
                self.start(pipeline, sniffed, true);
            }
            Some(decoding) => {
                let fed = decoding.feed(pipeline, &[], &self.kept, true);
                self.after(pipeline, fed, true);
            }
        }
    }

    /// For a parser that runs scripts, which tokenizes decoded text later than it is decoded
    /// (after a script's pause, or text a script wrote): 13.2.3.4 "change the encoding" for
    /// a `<meta>` that declared `new` while the confidence was tentative. Every byte decoded
    /// so far (`kept`) decides whether the decoder can be switched on the fly (the text
    /// waiting to be tokenized then reads the same); otherwise the parse starts over from the
    /// bytes. Returns whether it did.
    pub(super) fn encoding_declared(
        &mut self,
        pipeline: &mut Pipeline,
        new: &'static Encoding,
    ) -> bool {
        let Some(decoding) = self.decoding.as_mut() else {
            return false;
        };
        if decoding.confidence != Confidence::Tentative {
            return false;
        }
        let fed = match decoding.change_the_encoding(new, &self.kept) {
            Some(encoding) => Fed::Restart(encoding),
            None => Fed::Done,
        };
        let restarted = fed != Fed::Done;
        self.after(pipeline, fed, self.ended);
        restarted
    }

    /// Starts decoding the kept bytes with the sniffed encoding.
    fn start(&mut self, pipeline: &mut Pipeline, sniffed: Sniffed, last: bool) {
        let mut decoding = Decoding::start(sniffed.encoding, sniffed.confidence, pipeline);
        pipeline.reserve(&self.kept);
        let bytes = self.kept.get(sniffed.bom_len..).unwrap_or_default();
        let fed = decoding.feed(pipeline, bytes, &self.kept, last);
        self.decoding = Some(decoding);
        self.after(pipeline, fed, last);
    }

    /// Restarts if asked to, and drops the kept bytes once they cannot be needed.
    fn after(&mut self, pipeline: &mut Pipeline, fed: Fed, last: bool) {
        if let Fed::Restart(encoding) = fed {
            // Step 6 of "change the encoding": parse every byte so far again, from a new
            // document, with the new encoding and the confidence certain. (No BOM to skip: a
            // BOM makes the confidence certain from the start.)
            pipeline.restart();
            pipeline.reserve(&self.kept);
            let mut decoding = Decoding::start(encoding, Confidence::Certain, pipeline);
            let _ = decoding.feed(pipeline, &self.kept, &[], last);
            self.decoding = Some(decoding);
        }
        if self
            .decoding
            .as_ref()
            .is_some_and(|d| d.confidence != Confidence::Tentative)
        {
            self.kept = Vec::new();
        }
    }
}
