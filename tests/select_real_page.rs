//! Selectors on a real page: `tests/data/bench-corpus/scrapinghub-aeb-011.html` (a wccftech.com
//! article, 46 KB). Every expected value below was checked by hand against the page's source
//! (with `grep`), as noted beside it.

use html_arena::{Document, ElementRef, ParseOptions, Selector};

fn page() -> Document {
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench-corpus/scrapinghub-aeb-011.html"
    ))
    .expect("the vendored page");
    Document::parse_bytes(&bytes, &ParseOptions::default()).expect("parses")
}

fn select<'a>(doc: &'a Document, selector: &str) -> Vec<ElementRef<'a>> {
    let sel = Selector::parse(selector).unwrap_or_else(|e| panic!("{selector}: {e}"));
    doc.select(&sel).collect()
}

fn texts(doc: &Document, selector: &str) -> Vec<String> {
    select(doc, selector).iter().map(|e| e.text()).collect()
}

fn attrs(doc: &Document, selector: &str, name: &str) -> Vec<String> {
    select(doc, selector)
        .iter()
        .map(|e| e.attr(name).unwrap_or("").to_owned())
        .collect()
}

const TITLE: &str =
    "Stadia Falls Short of 4K at Launch, Destiny 2 Runs at a Native 1080p and Medium Settings";

#[test]
fn head_metadata() {
    let doc = page();
    // Line 20: <title>; line 28: <meta property="og:title">.
    assert_eq!(texts(&doc, "head > title"), [TITLE]);
    assert_eq!(attrs(&doc, "meta[property='og:title']", "content"), [TITLE]);
    // Line 250: <h1 class="page-heading">.
    assert_eq!(texts(&doc, "h1"), [TITLE]);
    assert_eq!(texts(&doc, "h1.page-heading"), [TITLE]);
}

#[test]
fn links() {
    let doc = page();
    // 71 `<a ... href=` in the source, two of them inside an HTML comment (the menu's
    // "Exclusives" and "PC Builder"); one `<a>` without href ("Change Ad Consent").
    assert_eq!(select(&doc, "a[href]").len(), 69);
    assert_eq!(texts(&doc, "a:not([href])"), ["Change Ad Consent"]);
    assert_eq!(
        attrs(&doc, "a[href]", "href")[..10],
        [
            "https://wccftech.com/",
            "/category/news/",
            "/topic/hardware/",
            "/topic/games/",
            "/topic/gadgets/",
            "/topic/finance/",
            "/topic/deals/",
            "/review/",
            "https://wccftech.com/topic/games/",
            "https://wccftech.com/author/nate/",
        ]
    );
    // "/pc-builder/": line 220 is in a comment, line 663 (the footer) is a link.
    assert_eq!(select(&doc, "a[href='/pc-builder/']").len(), 1);
    assert_eq!(select(&doc, "footer a[href='/pc-builder/']").len(), 1);
    // Lines 499-503: five "popular-post-N" list items.
    assert_eq!(select(&doc, "li[class^='popular-post-']").len(), 5);
    assert_eq!(
        attrs(&doc, "li.popular-post-3 > a", "href"),
        [
            "https://wccftech.com/ryzen-dram-calculator-tool-author-not-receiving-ryzen-9-3950x-or-strx-samples/"
        ]
    );
}

#[test]
fn related_articles() {
    let doc = page();
    // Lines 310-380: five <article class="post clearfix">, each with <h3><a>title</a></h3>.
    let titles = [
        "GRID’s Stadia Exclusive Mode is All About Endurance Racing",
        "Stadia Launches Tomorrow as Google Officially Enters the Video Game Market",
        "Borderlands 3 Producer Was Actually Shocked at How Smooth The Game Plays on Stadia",
        "Stadia Launch Line-up Almost Doubled – Extra Game for Pro Subscribers",
        "UK Labour Party Proposes Big-Tech Tax to Pay for Nationalisation of Broadband, Free Fibre for All",
    ];
    assert_eq!(texts(&doc, "article.post.clearfix h3 > a"), titles);
    assert_eq!(texts(&doc, "article.post:nth-of-type(3) h3"), [titles[2]]);
    assert_eq!(
        texts(&doc, "article.post:has(img[alt^=borderlands]) h3"),
        [titles[2]]
    );
    // Each article's first link (the thumbnail) and its title link point to the same place.
    for article in select(&doc, "article.post") {
        let hrefs: Vec<&str> = article
            .select(&Selector::parse(":scope > .thumb > a, :scope h3 > a").unwrap())
            .map(|a| a.attr("href").unwrap())
            .collect();
        assert_eq!(hrefs.len(), 2);
        assert_eq!(hrefs[0], hrefs[1]);
    }
    // The sidebar headings (lines 300, 488, 498, 511).
    assert_eq!(
        texts(&doc, ".sub-head"),
        [
            "Related",
            "Trending Stories",
            "Popular Discussions",
            "Wccftech TV"
        ]
    );
    assert_eq!(texts(&doc, "h3.sub-head + ul > li").len(), 10);
}

#[test]
fn images_and_noscript() {
    let doc = page();
    // The seven <img> of the source, in order, with their alt attributes; the first is the
    // Facebook pixel inside <noscript>, which is parsed as elements with scripting off.
    assert_eq!(
        attrs(&doc, "img[alt]", "alt"),
        [
            "",
            "Stadia",
            "grid_stadia_art",
            "google-stadia-pax-west-2019-1200x900",
            "borderlands_3_3",
            "google-stadia-launch-lineup-expanded-01-header",
            "uk-free-broadband-big-tech-tax-01-header",
        ]
    );
    assert_eq!(select(&doc, "noscript > img[width='1']").len(), 1);
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/bench-corpus/scrapinghub-aeb-011.html"
    ))
    .unwrap();
    let scripted =
        Document::parse_bytes(&bytes, &ParseOptions::default().with_scripting(true)).unwrap();
    assert_eq!(select(&scripted, "noscript img").len(), 0);
    assert_eq!(select(&scripted, "img[alt]").len(), 6);
}

#[test]
fn matches_and_closest_agree_with_select() {
    let doc = page();
    let sel = Selector::parse("article.post h3 a, .sub-head span").unwrap();
    let selected: Vec<ElementRef<'_>> = doc.select(&sel).collect();
    let matched: Vec<ElementRef<'_>> = doc
        .root()
        .descendants()
        .filter_map(|n| n.as_element())
        .filter(|e| e.matches(&sel))
        .collect();
    assert_eq!(selected, matched);
    let title_link = select(&doc, "article.post h3 a")[0];
    let article = title_link
        .closest(&Selector::parse("article").unwrap())
        .unwrap();
    assert!(article.matches(&Selector::parse(".post.clearfix:first-of-type").unwrap()));
}
