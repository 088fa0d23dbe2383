//! Serialization throughput: `Document::html` against html5ever's serializer (over
//! markup5ever_rcdom), on the same pages in the same run. Parsing is excluded: each parser's
//! tree is built once per page. Prints MB/s of output and the ratio per page, then the median
//! of the per-page ratios.
//!
//! `cargo bench --bench serialize`

mod common;

use std::hint::black_box;
use std::time::Duration;

use html5ever::driver::ParseOpts;
use html5ever::serialize::{SerializeOpts, serialize};
use html5ever::tendril::TendrilSink;
use markup5ever_rcdom::{RcDom, SerializableHandle};

fn main() {
    let pages = common::corpus();
    println!("serialize: {} pages", pages.len());
    println!(
        "{:<34} {:>9} {:>12} {:>12} {:>7}",
        "page", "KB out", "arena MB/s", "h5ever MB/s", "ratio"
    );
    let mut ratios = Vec::new();
    let (mut total_arena, mut total_h5, mut bytes) = (Duration::ZERO, Duration::ZERO, 0usize);
    for page in &pages {
        let doc = html_arena::Document::parse(&page.text);
        let dom = html5ever::parse_document(RcDom::default(), ParseOpts::default())
            .one(page.text.as_str());
        let handle: SerializableHandle = dom.document.clone().into();
        // html5ever's serializer assumes scripting on; ours follows the document's flag (off).
        let opts = SerializeOpts {
            scripting_enabled: false,
            ..SerializeOpts::default()
        };
        let options = html_arena::serialize::SerializeOptions::default();
        let out_len = doc.html().len();
        let times = common::compare(
            7,
            Duration::from_millis(30),
            &mut [
                &mut || {
                    // Both serializers write into an output buffer sized up front.
                    let mut out = String::with_capacity(out_len);
                    doc.write_html(&mut out, &options).expect("serialize");
                    black_box(out);
                },
                &mut || {
                    let mut out = Vec::with_capacity(out_len);
                    serialize(&mut out, &handle, opts.clone()).expect("serialize");
                    black_box(out);
                },
            ],
        );
        let ratio = times[1].as_secs_f64() / times[0].as_secs_f64();
        ratios.push(ratio);
        total_arena += times[0];
        total_h5 += times[1];
        bytes += out_len;
        println!(
            "{:<34} {:>9.0} {:>12.1} {:>12.1} {:>6.2}x",
            page.name,
            out_len as f64 / 1e3,
            common::mbps(out_len, times[0]),
            common::mbps(out_len, times[1]),
            ratio
        );
    }
    println!(
        "serialize: median per-page ratio {:.2}x html5ever; total {:.1} MB/s vs {:.1} MB/s ({:.2}x)",
        common::median(&mut ratios),
        common::mbps(bytes, total_arena),
        common::mbps(bytes, total_h5),
        total_h5.as_secs_f64() / total_arena.as_secs_f64()
    );
}
