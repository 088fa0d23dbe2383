//! Script execution hooks: a parser for an embedder that runs scripts ([`ScriptingParser`]).
//!
//! The parsing chapter is written for a browser that runs scripts while it parses. This module
//! holds the parser's side of that:
//!
//! - 13.2.1 "Overview of the parsing model": the **script nesting level** and the **parser
//!   pause flag**;
//! - 13.2.3.5 "Preprocessing the input stream": the **insertion point**;
//! - 13.2.6.4.8 the "text" insertion mode, "An end tag whose tag name is "script"": the steps
//!   around "prepare the script element", and the **pending parsing-blocking script**
//!   (the tree builder pops the script and stops the tokenizer right after its end tag; the
//!   rest is here);
//! - the HTML Standard's 8.4 "Dynamic markup insertion", 8.4.3 "document.write()": the
//!   **document write steps** (step 10, "Insert string into the input stream just before the
//!   insertion point"; step 11, "If document's pending parsing-blocking script is null, then
//!   have the HTML parser process string, one code point at a time, ... stopping when the
//!   tokenizer reaches the insertion point or when the processing of the tokenizer is aborted
//!   by the tree construction stage"), and 8.4.4 "document.writeln()" (lineFeed true: the
//!   same with a U+000A LINE FEED appended). The full standard's snapshot is
//!   `shared/spec/html-standard-20260916-d78d7dd.html.gz`.
//!
//! Running a script is the embedder's business: the parser stops at each script and hands
//! back its [`NodeId`]; the embedder's "prepare the script element" decides (run it now, make
//! it the pending parsing-blocking script, or neither) and calls back into the parser for
//! `document.write`. Nothing here recurses: a script written by a script is handed back
//! from [`ScriptingParser::document_write`], and the embedder says when it has finished with
//! [`ScriptingParser::resume_write`]. The script nesting level is bounded (a budget, with a
//! typed error).
//!
//! ## The input stream
//!
//! The input after the tokenizer's position is a stack of text segments, the next to read on
//! top: what scripts wrote and what is left of it after a nested script stopped the
//! tokenizer, and, below them all, the network input (text waiting in the [`Network`]
//! buffer; bytes are decoded into it as they arrive). Each script nesting level's insertion
//! point ("just before the next input character" when its script started) is a boundary in
//! that stack: the segments from index `insertion_point` up come before it. A write goes at
//! the end of segment `insertion_point` (or starts it): just before the insertion point.
//! Segments are read in place (a position, never re-copied), and a segment is handed to the
//! tokenizer a piece at a time, each piece ending just after the next `</script...>` that may
//! stop it, so that the text after a pause is never copied again: writes and pauses cost time
//! linear in the text.

use indextree::NodeId as RawId;

use super::{Input, ParseOptions, Parser, Pipeline};
use crate::dom::{Document, NodeId};
use crate::encoding::{Confidence, EncodingError};

/// The script nesting level a [`ScriptingParser`] allows by default (see
/// [`ScriptingParser::with_max_nesting`]).
pub const DEFAULT_MAX_SCRIPT_NESTING: usize = 64;

/// Network text waiting to be tokenized (a parser that runs scripts stops at each script, so
/// text that arrives goes here first).
#[derive(Default)]
pub(super) struct Network {
    text: String,
    /// What has been tokenized of `text`.
    pos: usize,
    /// The network input has ended.
    pub(super) ended: bool,
}

impl Network {
    /// Puts a pipeline in script mode.
    pub(super) fn attach(pipeline: &mut Pipeline) {
        pipeline.network = Some(Box::default());
        // The source is the input in the order the tokenizer reads it, writes included: it
        // is kept whole (`feed_piece`).
        pipeline.lean = None;
        pipeline.builder.doc.strings.set_keep_source(true);
        pipeline.builder.script_hooks = true;
        // The embedder sees and changes the tree at every script: no element may be kept
        // out of it behind a stand-in (`dom/build.rs`).
        pipeline.builder.stand_in_spacing = usize::MAX;
    }

    /// Appends arriving text (dropping what was tokenized once it is half the buffer, so
    /// that the buffer stays linear).
    pub(super) fn push(&mut self, text: &str) {
        if self.pos > 0 && self.pos >= self.text.len() / 2 {
            self.text.drain(..self.pos);
            self.pos = 0;
        }
        self.text.push_str(text);
    }
}

/// What a [`ScriptingParser`] hands back from [`run`](ScriptingParser::run).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ParserEvent {
    /// A `script` element's end tag was just processed ("text" insertion mode): the element
    /// is popped, the insertion point is just before the next input character and the
    /// script nesting level is one. "Prepare the script element" is yours: read it through
    /// [`ScriptingParser::document`] (its text, `src`, `type`, `async`, `defer`), run it
    /// (calling [`document_write`](ScriptingParser::document_write)), make it the pending
    /// parsing-blocking script ([`ScriptingParser::block_on`]), or leave it; then call
    /// [`run`](ScriptingParser::run) again.
    Script(NodeId),
    /// The parser is blocked on the pending parsing-blocking script (the "otherwise" steps
    /// after a script's end tag, steps 1 to 5): fetch it, write more network input if you
    /// like (it is buffered), and call [`run`](ScriptingParser::run) when it is ready to run.
    /// No insertion point is defined meanwhile.
    Blocked(NodeId),
    /// Execute the parsing-blocking script now (steps 9 to 11: the insertion point is just
    /// before the next input character, the script nesting level is one); call
    /// [`run`](ScriptingParser::run) when it has finished.
    Execute(NodeId),
    /// All the network input written so far is parsed: [`write`](ScriptingParser::write)
    /// more, or [`end`](ScriptingParser::end) it, then call [`run`](ScriptingParser::run).
    NeedInput,
    /// A `<meta>` (maybe one a script wrote) changed the encoding of byte input, and the
    /// decoder could not be switched on the fly: the parse started over from the first byte
    /// with the new encoding (13.2.3.4 "change the encoding", step 6, which browsers carry
    /// out by loading the page again). Every node handed out before is gone; the scripts
    /// will be handed out again. Call [`run`](ScriptingParser::run).
    EncodingRestart,
    /// The end of the input was parsed: take the document with
    /// [`finish`](ScriptingParser::finish).
    Done,
}

/// What a write hands back ([`ScriptingParser::document_write`],
/// [`ScriptingParser::resume_write`]).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum WriteEvent {
    /// The written text is parsed up to the insertion point (or could not be parsed yet: a
    /// parsing-blocking script is pending); the script that wrote goes on.
    Done,
    /// A script element the written text completed (a nested script: the script nesting
    /// level is one more, and the insertion point is just after its end tag). Prepare it as
    /// for [`ParserEvent::Script`]; its own writes go to the parser as usual; then call
    /// [`resume_write`](ScriptingParser::resume_write) to go on with the text written
    /// before.
    Script(NodeId),
}

/// A misuse of a [`ScriptingParser`], or a budget it hit.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ScriptError {
    /// `document.write()` with no insertion point: no script handed out by the parser is
    /// running (parsing has finished, or is blocked, or the caller is an `async` or `defer`
    /// script run at another time). The HTML Standard's document write steps then run
    /// "document open steps" (or ignore the write), which are the embedder's.
    NoInsertionPoint,
    /// [`run`](ScriptingParser::run) while a nested script handed out by a write is still
    /// running: finish it with [`resume_write`](ScriptingParser::resume_write) first.
    NestedScriptRunning,
    /// [`resume_write`](ScriptingParser::resume_write) with no nested script running.
    NoNestedScript,
    /// [`block_on`](ScriptingParser::block_on) for a node that is not the script the parser
    /// handed out last and is preparing, or while a parsing-blocking script is pending.
    NotPreparing(NodeId),
    /// A script written by scripts would have made the script nesting level greater than
    /// the budget ([`ScriptingParser::with_max_nesting`]). The write was still parsed, but
    /// the script elements it completed at that depth were not handed out (not run).
    NestingTooDeep {
        /// The budget.
        limit: usize,
    },
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ScriptError::NoInsertionPoint => f.write_str(
                "document.write with no insertion point (no parser-run script is running)",
            ),
            ScriptError::NestedScriptRunning => {
                f.write_str("run() while a nested script is running: call resume_write() first")
            }
            ScriptError::NoNestedScript => {
                f.write_str("resume_write() with no nested script running")
            }
            ScriptError::NotPreparing(id) => {
                write!(
                    f,
                    "node {id:?} is not the script being prepared (or one is already blocking)"
                )
            }
            ScriptError::NestingTooDeep { limit } => write!(
                f,
                "scripts written by scripts nest deeper than {limit}: the deepest were not run"
            ),
        }
    }
}

impl std::error::Error for ScriptError {}

/// A piece of written text that the tokenizer has not reached yet.
struct Held {
    text: String,
    pos: usize,
}

/// One script nesting level: a script that runs.
#[derive(Copy, Clone)]
struct Level {
    /// The insertion point: the segments of `held` from this index up come before it.
    insertion_point: usize,
    script: RawId,
}

/// Where the top level is.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Phase {
    Parsing,
    /// Blocked on the pending parsing-blocking script.
    Blocked(RawId),
    Done,
}

/// Where tokenizing stopped.
enum Pumped {
    /// At a script's end tag: the script, the nesting level is not raised yet.
    Script(RawId),
    /// At the floor (the insertion point of the write), or the network text ran out.
    Floor,
}

/// An HTML parser for an embedder that runs scripts: it stops at each `</script>` and lets
/// the embedder run the script, read and change the document, and call `document.write`.
///
/// The scripting flag is on. Write network input with [`write_str`](Self::write_str) or
/// [`write`](Self::write) (bytes: sniffed and decoded as [`Parser::write`] does), end it with
/// [`end`](Self::end), and call [`run`](Self::run) until it says [`ParserEvent::Done`]. The
/// tree is the one the whole input would give if it were written at once, whatever the
/// chunking and wherever the pauses fall.
///
/// ```
/// use html_arena::{ParseOptions, ParserEvent, ScriptingParser, WriteEvent};
///
/// let mut parser = ScriptingParser::new(&ParseOptions::default());
/// parser.write_str("<p>1<script>say('2')</script>3");
/// parser.end();
/// loop {
///     match parser.run().unwrap() {
///         ParserEvent::Script(script) => {
///             // A (very) small "prepare the script element": a script that says `say('x')`
///             // writes x.
///             let text = parser.document().node(script).unwrap().text();
///             if let Some(arg) = text.strip_prefix("say('").and_then(|t| t.strip_suffix("')")) {
///                 let mut event = parser.document_write(arg).unwrap();
///                 // Scripts the text completes come back in turn (none here).
///                 while let WriteEvent::Script(_nested) = event {
///                     event = parser.resume_write().unwrap();
///                 }
///             }
///         }
///         ParserEvent::Done => break,
///         _ => {}
///     }
/// }
/// let doc = parser.finish();
/// assert_eq!(doc.body().unwrap().text(), "1say('2')23");
/// ```
pub struct ScriptingParser {
    parser: Parser,
    /// Written text not tokenized yet; the next to read last.
    held: Vec<Held>,
    /// The script nesting level's scripts, outermost first.
    levels: Vec<Level>,
    /// The pending parsing-blocking script.
    pending_blocking: Option<RawId>,
    /// The parser pause flag.
    pause_flag: bool,
    phase: Phase,
    max_nesting: usize,
    /// The pipeline's restart count this state belongs to.
    restarts_seen: u32,
    /// A write skipped scripts too deep for the budget.
    too_deep: bool,
    /// [`end`](Self::end) was called.
    network_ended: bool,
    /// [`document_mut`](Self::document_mut) was called since the parser last looked.
    mutated: bool,
}

impl ScriptingParser {
    /// A parser for a whole document, with `options` (the scripting flag is turned on).
    pub fn new(options: &ParseOptions) -> ScriptingParser {
        let mut options = options.clone();
        options.scripting = true;
        let mut parser = Parser::new(&options);
        Network::attach(&mut parser.pipeline);
        ScriptingParser {
            parser,
            held: Vec::new(),
            levels: Vec::new(),
            pending_blocking: None,
            pause_flag: false,
            phase: Phase::Parsing,
            max_nesting: DEFAULT_MAX_SCRIPT_NESTING,
            restarts_seen: 0,
            too_deep: false,
            network_ended: false,
            mutated: false,
        }
    }

    /// Sets the highest script nesting level (at least 1; default
    /// [`DEFAULT_MAX_SCRIPT_NESTING`]): scripts written by scripts nested deeper are not
    /// handed out, and the write that completed them says
    /// [`ScriptError::NestingTooDeep`].
    pub fn with_max_nesting(mut self, max: usize) -> ScriptingParser {
        self.max_nesting = max.max(1);
        self
    }

    /// Writes network text (taken as it comes; tokenized by [`run`](Self::run)). Input after
    /// [`end`](Self::end) is ignored.
    pub fn write_str(&mut self, chunk: &str) {
        if !self.network_ended {
            self.parser.write_str(chunk);
        }
    }

    /// Writes network bytes: sniffed and decoded as by [`Parser::write`], then tokenized by
    /// [`run`](Self::run). Input after [`end`](Self::end) is ignored.
    ///
    /// # Errors
    ///
    /// [`EncodingError::UnknownLabel`] as for [`Parser::write`].
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), EncodingError> {
        if self.network_ended {
            return Ok(());
        }
        self.parser.write(chunk)
    }

    /// Ends the network input.
    pub fn end(&mut self) {
        if std::mem::replace(&mut self.network_ended, true) {
            return;
        }
        let parser = &mut self.parser;
        match &mut parser.input {
            Input::Start | Input::Text(None) => parser.pipeline.end(),
            Input::Text(Some(decoding)) => {
                let _ = decoding.feed(&mut parser.pipeline, &[], &[], true);
            }
            Input::Bytes(input) => input.end(&mut parser.pipeline),
        }
    }

    /// The document as parsed so far (during a pause: with the script element in it, the
    /// elements still open included).
    pub fn document(&self) -> &Document {
        &self.parser.pipeline.builder.doc
    }

    /// The document, to change during a pause as scripts do (the mutation API: see
    /// [`Document::append`]). The parser then goes on inserting where the specification
    /// says, whatever was moved: into an element that was detached, say. Nodes freed with
    /// [`Document::remove`] that the parser still holds (open elements) are dropped from its
    /// state; use [`Document::detach`] for what a script's `remove()` does.
    pub fn document_mut(&mut self) -> &mut Document {
        self.mutated = true;
        let tb = &mut self.parser.pipeline.builder;
        // The tokens of the active formatting elements: their attributes as created.
        let mut entry = tb.active.last();
        while let Some(e) = entry {
            if let Some(node) = tb.active.element(e) {
                if let Some(crate::dom::NodeData::Element(data)) =
                    tb.doc.arena.get(node).map(|n| n.get())
                {
                    tb.token_attrs.entry(node).or_insert(data.attrs);
                }
            }
            entry = tb.active.prev(e);
        }
        &mut tb.doc
    }

    /// The script nesting level (13.2.1): the number of scripts handed out that are running.
    pub fn script_nesting_level(&self) -> usize {
        self.levels.len()
    }

    /// Whether an insertion point is defined (a script the parser handed out is running).
    pub fn has_insertion_point(&self) -> bool {
        !self.levels.is_empty()
    }

    /// Makes `script` — the script the parser just handed out and is being prepared — the
    /// pending parsing-blocking script ("prepare the script element": a parser-inserted
    /// classic script with a `src` and neither `async` nor `defer`, say). The parser stops
    /// when that script's end tag steps end, and [`run`](Self::run) then says
    /// [`ParserEvent::Blocked`]; a nested one (written by a script) sets the parser pause
    /// flag: the writes of the scripts around it are not parsed until the top level.
    ///
    /// # Errors
    ///
    /// [`ScriptError::NotPreparing`] if `script` is not the last script handed out, or a
    /// parsing-blocking script is already pending.
    pub fn block_on(&mut self, script: NodeId) -> Result<(), ScriptError> {
        match self.levels.last() {
            Some(level) if level.script == script.raw && self.pending_blocking.is_none() => {
                self.pending_blocking = Some(script.raw);
                Ok(())
            }
            _ => Err(ScriptError::NotPreparing(script)),
        }
    }

    /// The document write steps (HTML Standard 8.4.3 "document.write()"), for the script
    /// that runs: inserts `text` just before the insertion point (step 10) and, unless a
    /// parsing-blocking script is pending, parses up to the insertion point (step 11).
    ///
    /// # Errors
    ///
    /// [`ScriptError::NoInsertionPoint`] when no script handed out is running (step 9,
    /// "If the insertion point is undefined": the embedder runs the document open steps, or
    /// ignores the write).
    /// [`ScriptError::NestingTooDeep`] when the text completed scripts deeper than the
    /// budget (the text is parsed; those scripts are not handed out).
    pub fn document_write(&mut self, text: &str) -> Result<WriteEvent, ScriptError> {
        self.check_restart();
        let Some(level) = self.levels.last().copied() else {
            return Err(ScriptError::NoInsertionPoint);
        };
        // Step 10: "Insert string into the input stream just before the insertion point."
        let ip = level.insertion_point;
        match self.held.get_mut(ip) {
            Some(segment) => segment.text.push_str(text),
            None => self.held.push(Held {
                text: text.to_owned(),
                pos: 0,
            }),
        }
        // Step 11: "If document's pending parsing-blocking script is null, then have the
        // HTML parser process string ... stopping when the tokenizer reaches the insertion
        // point or when the processing of the tokenizer is aborted by the tree construction
        // stage." (The parser pause flag is set only while one is pending.)
        self.write_steps_tail(ip)
    }

    /// `document.writeln()` (8.4.4: the document write steps with lineFeed true):
    /// [`document_write`](Self::document_write) with a line feed after the text.
    ///
    /// # Errors
    ///
    /// As [`document_write`](Self::document_write).
    pub fn document_writeln(&mut self, text: &str) -> Result<WriteEvent, ScriptError> {
        let mut line = String::with_capacity(text.len() + 1);
        line.push_str(text);
        line.push('\n');
        self.document_write(&line)
    }

    /// The nested script a write handed out ([`WriteEvent::Script`]) has finished: the rest
    /// of its end tag's steps (8 to 10), then the parse of the text written before goes on up
    /// to the insertion point.
    ///
    /// # Errors
    ///
    /// [`ScriptError::NoNestedScript`] if no nested script is running;
    /// [`ScriptError::NestingTooDeep`] as for [`document_write`](Self::document_write).
    pub fn resume_write(&mut self) -> Result<WriteEvent, ScriptError> {
        self.check_restart();
        if self.levels.len() < 2 {
            return Err(ScriptError::NoNestedScript);
        }
        self.end_script();
        if self.pending_blocking.is_some() {
            // "If the script nesting level is not zero: Set the parser pause flag to true, and
            // abort the processing of any nested invocations of the tokenizer, yielding
            // control back to the caller."
            self.pause_flag = true;
            return Ok(WriteEvent::Done);
        }
        let ip = self.levels.last().map_or(0, |l| l.insertion_point);
        self.write_steps_tail(ip)
    }

    /// Parses on to the next event. Call it first, after each [`ParserEvent::Script`] and
    /// [`ParserEvent::Execute`] once the script has finished (or was not run), after
    /// [`ParserEvent::Blocked`] when the script is ready, and after [`ParserEvent::NeedInput`]
    /// once there is more input.
    ///
    /// # Errors
    ///
    /// [`ScriptError::NestedScriptRunning`] if a nested script handed out by a write has not
    /// been finished with [`resume_write`](Self::resume_write).
    pub fn run(&mut self) -> Result<ParserEvent, ScriptError> {
        if self.levels.len() > 1 {
            return Err(ScriptError::NestedScriptRunning);
        }
        if self.check_restart() {
            return Ok(ParserEvent::EncodingRestart);
        }
        if !self.levels.is_empty() {
            // The end of the top-level script: steps 8 to 10 of "text" for `</script>`, or
            // steps 12 to 13 after a parsing-blocking script ran.
            self.end_script();
            if let Some(script) = self.pending_blocking.take() {
                // "Otherwise: While the pending parsing-blocking script is not null: Let the
                // script be the pending parsing-blocking script. Set the pending
                // parsing-blocking script to null. ... Block the tokenizer".
                self.phase = Phase::Blocked(script);
                return Ok(ParserEvent::Blocked(self.id(script)));
            }
        }
        match self.phase {
            Phase::Done => return Ok(ParserEvent::Done),
            Phase::Blocked(script) => {
                // Steps 8 to 11: "Unblock the tokenizer ... Let the insertion point be just
                // before the next input character. Increment the parser's script nesting
                // level by one ... Execute the script element".
                self.phase = Phase::Parsing;
                self.levels.push(Level {
                    insertion_point: self.held.len(),
                    script,
                });
                return Ok(ParserEvent::Execute(self.id(script)));
            }
            Phase::Parsing => {}
        }
        // The top level: what scripts wrote and left, then the network input.
        loop {
            let pumped = self.pump(0);
            if self.encoding_change() {
                return Ok(ParserEvent::EncodingRestart);
            }
            if let Pumped::Script(script) = pumped {
                return Ok(ParserEvent::Script(self.start_script(script)));
            }
            let pipeline = &mut self.parser.pipeline;
            let Some(network) = pipeline.network.as_mut() else {
                return Ok(ParserEvent::Done);
            };
            if network.pos < network.text.len() {
                let text = std::mem::take(&mut network.text);
                let pos = network.pos;
                let (n, paused) = feed_piece(pipeline, &text[pos..]);
                if let Some(network) = pipeline.network.as_mut() {
                    network.text = text;
                    network.pos = pos + n;
                }
                if self.encoding_change() {
                    return Ok(ParserEvent::EncodingRestart);
                }
                if let Some(script) = paused {
                    return Ok(ParserEvent::Script(self.start_script(script)));
                }
                continue;
            }
            if !network.ended {
                return Ok(ParserEvent::NeedInput);
            }
            // The end of the input.
            if !pipeline.builder.stopped {
                pipeline.tokenizer.end(&mut pipeline.builder);
            }
            if self.encoding_change() {
                return Ok(ParserEvent::EncodingRestart);
            }
            self.phase = Phase::Done;
            return Ok(ParserEvent::Done);
        }
    }

    /// Ends the parse and returns the document. After [`ParserEvent::Done`] that is the whole
    /// parse; before it, the rest of the input is parsed without handing out scripts (a
    /// write's text and the network input that has arrived, then the end of the input).
    pub fn finish(self) -> Document {
        let ScriptingParser {
            parser,
            mut held,
            network_ended,
            ..
        } = self;
        let Parser {
            mut pipeline,
            input,
            ..
        } = parser;
        pipeline.builder.script_hooks = false;
        pipeline.builder.ready_script = None;
        // Left-over written text, then the network text, in order, with no more pauses.
        let mut rest = String::new();
        while let Some(segment) = held.pop() {
            rest.push_str(segment.text.get(segment.pos..).unwrap_or_default());
        }
        if let Some(network) = pipeline.network.take() {
            rest.push_str(network.text.get(network.pos..).unwrap_or_default());
        }
        pipeline.feed(&rest);
        let (encoding, confidence) = match input {
            Input::Bytes(input) => input.finish(&mut pipeline),
            Input::Text(Some(mut decoding)) if !network_ended => {
                let _ = decoding.feed(&mut pipeline, &[], &[], true);
                (encoding_rs::UTF_8, Confidence::Irrelevant)
            }
            _ => (encoding_rs::UTF_8, Confidence::Irrelevant),
        };
        pipeline.into_document(encoding, confidence)
    }

    // ---------------------------------------------------------------------------------------

    /// Steps 5 and 6 of "text" for `</script>` (the parser's part before "prepare the script
    /// element"): "Let the insertion point be just before the next input character.
    /// Increment the parser's script nesting level by one."
    fn start_script(&mut self, script: RawId) -> NodeId {
        self.levels.push(Level {
            insertion_point: self.held.len(),
            script,
        });
        self.id(script)
    }

    fn id(&self, raw: RawId) -> NodeId {
        self.parser.pipeline.builder.doc.id_of(raw)
    }

    /// Steps 8 and 9 of "text" for `</script>`: "Decrement the parser's script nesting level
    /// by one. If the parser's script nesting level is zero, then set the parser pause flag
    /// to false. Let the insertion point have the value of the old insertion point."
    fn end_script(&mut self) {
        self.levels.pop();
        if self.levels.is_empty() {
            self.pause_flag = false;
        }
    }

    /// Step 11 of the document write steps, at the insertion point `ip`.
    fn write_steps_tail(&mut self, ip: usize) -> Result<WriteEvent, ScriptError> {
        if self.pending_blocking.is_some() || self.pause_flag {
            return Ok(WriteEvent::Done);
        }
        self.too_deep = false;
        loop {
            match self.pump(ip) {
                Pumped::Script(script) if self.levels.len() < self.max_nesting => {
                    return Ok(WriteEvent::Script(self.start_script(script)));
                }
                // Too deep: the script is not handed out (not run); its end tag's steps end
                // at once.
                Pumped::Script(_) => self.too_deep = true,
                Pumped::Floor if self.too_deep => {
                    return Err(ScriptError::NestingTooDeep {
                        limit: self.max_nesting,
                    });
                }
                Pumped::Floor => return Ok(WriteEvent::Done),
            }
        }
    }

    /// Tokenizes the held segments from the top down to index `floor` (the insertion point
    /// of the write being parsed; 0 at the top level, where the network input comes next),
    /// until a script's end tag stops the tokenizer.
    fn pump(&mut self, floor: usize) -> Pumped {
        while self.held.len() > floor {
            let Some(top) = self.held.last_mut() else {
                break;
            };
            if top.pos >= top.text.len() {
                self.held.pop();
                continue;
            }
            let (n, paused) = feed_piece(&mut self.parser.pipeline, &top.text[top.pos..]);
            top.pos += n;
            if let Some(script) = paused {
                return Pumped::Script(script);
            }
        }
        Pumped::Floor
    }

    /// After tokenizing: runs "change the encoding" for a `<meta>` the tree builder met.
    /// Returns whether the parse started over.
    fn encoding_change(&mut self) -> bool {
        let parser = &mut self.parser;
        let Some(new) = parser.pipeline.builder.declared_encoding.take() else {
            return false;
        };
        if let Input::Bytes(input) = &mut parser.input {
            input.encoding_declared(&mut parser.pipeline, new);
        }
        self.check_restart()
    }

    /// Forgets the script state of a parse that started over (13.2.3.4 step 6), and the
    /// nodes the embedder freed. Returns whether the parse started over.
    fn check_restart(&mut self) -> bool {
        if std::mem::take(&mut self.mutated) {
            forget_freed_nodes(&mut self.parser.pipeline.builder);
        }
        let restarts = self.parser.pipeline.restarts;
        if restarts == self.restarts_seen {
            return false;
        }
        self.restarts_seen = restarts;
        self.held.clear();
        self.levels.clear();
        self.pending_blocking = None;
        self.pause_flag = false;
        self.phase = Phase::Parsing;
        true
    }
}

/// After the embedder changed the document: drops from the tree builder's state the nodes it
/// freed ([`Document::remove`]; a script's `remove()` is [`Document::detach`], which leaves
/// them alive and the parser inserting into them), so that the parser never works on a freed
/// node. Without the `html` element, the parse stops ("stop parsing"). Linear in the depth of
/// the stack of open elements, and run only after [`ScriptingParser::document_mut`].
fn forget_freed_nodes(tb: &mut crate::tree_builder::TreeBuilder) {
    let arena = &tb.doc.arena;
    let freed = |node: RawId| node.is_removed(arena) || arena.get(node).is_none();
    let mut positions = Vec::new();
    for i in 0..tb.open.len() {
        if tb.open.get(i).is_some_and(|e| freed(e.node)) {
            positions.push(i);
        }
    }
    let mut gone = Vec::new();
    let mut entry = tb.active.last();
    while let Some(e) = entry {
        if let Some(node) = tb.active.element(e).filter(|&n| freed(n)) {
            gone.push(node);
        }
        entry = tb.active.prev(e);
    }
    if tb.head.is_some_and(freed) {
        tb.head = None;
    }
    if tb.form.is_some_and(freed) {
        tb.form = None;
    }
    tb.token_attrs.retain(|&node, _| !freed(node));
    for node in gone {
        tb.active.remove_node(node);
    }
    if positions.first() == Some(&0) {
        tb.stop_parsing();
    } else {
        tb.open.remove_positions(&positions);
    }
}

/// Hands the next piece of `text` to the tokenizer: up to just after the next `</script` tag's
/// `>` (where the tokenizer may stop), or all of it. Returns how much was consumed and the
/// script whose end tag stopped the tokenizer, if one did.
fn feed_piece(pipeline: &mut Pipeline, text: &str) -> (usize, Option<RawId>) {
    let piece = &text[..piece_end(text.as_bytes())];
    let source = &mut pipeline.builder.doc.strings.source;
    let before = source.len();
    source.push_str(piece);
    if pipeline.builder.stopped {
        // A resource limit stopped the parse: the rest is kept as source, not looked at.
        return (piece.len(), None);
    }
    match pipeline
        .tokenizer
        .feed_until_pause(piece, &mut pipeline.builder)
    {
        Some(n) => {
            // The source is the input in the order the tokenizer reads it: what comes after
            // the pause is not read yet (a write may come first).
            pipeline.builder.doc.strings.source.truncate(before + n);
            let script = pipeline.builder.ready_script.take();
            (n, script)
        }
        None => (piece.len(), None),
    }
}

/// The length of the next piece of `text` to tokenize: through the `>` after the next
/// `</script` (ASCII case-insensitive), the only place the tokenizer can stop for a script;
/// all of `text` if there is none.
fn piece_end(text: &[u8]) -> usize {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'<', &text[from..]) {
        let at = from + i;
        let tag = text.get(at + 1..at + 8);
        if tag.is_some_and(|t| t[0] == b'/' && t[1..].eq_ignore_ascii_case(b"script")) {
            return match memchr::memchr(b'>', &text[at + 8..]) {
                Some(gt) => at + 8 + gt + 1,
                None => text.len(),
            };
        }
        from = at + 1;
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_end_after_script_end_tags() {
        assert_eq!(piece_end(b"abc"), 3);
        assert_eq!(piece_end(b"a</SCRIPT>b"), 10);
        assert_eq!(piece_end(b"a</script x=y>b"), 14);
        assert_eq!(piece_end(b"<<</scrip"), 9);
        assert_eq!(piece_end(b"</script"), 8);
    }
}
