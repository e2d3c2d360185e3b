//! What JIMU's Sec. 7 (Zhu–Huang, Asiacrypt'17) states in its text. Its
//! Figs. 8–11 (the per-application and microbenchmark tables) were lost in
//! text extraction and are not recovered here; only the figures the text
//! repeats are, each with where it says so.

use serde::Serialize;

/// The paper's application (Sec. 7, "Applications"), with N, B and T as
/// it states them.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct PaperApp {
    /// Our name.
    pub name: &'static str,
    /// What it computes, as the paper describes it.
    pub description: &'static str,
    /// The paper's N (AND gates), B and T, where stated.
    pub n: Option<u64>,
    /// Bucket size.
    pub bucket: Option<u32>,
    /// Garbled gates.
    pub total: Option<u64>,
}

/// The four applications of Sec. 7.
pub const APPS: &[PaperApp] = &[
    PaperApp {
        name: "aes128",
        description: "AES-128 of one block (key from P1, message from P2)",
        n: None,
        bucket: None,
        total: None,
    },
    PaperApp {
        name: "des",
        description: "DES of one block: 768-bit expanded key from P1, 64-bit message from P2",
        n: Some(18175),
        bucket: Some(5),
        total: Some(97593),
    },
    PaperApp {
        name: "compare10000",
        description: "which of two 10 000-bit integers is larger (10 000 bits each)",
        n: Some(10_000),
        bucket: Some(5),
        total: Some(55973),
    },
    PaperApp {
        name: "hamming2048",
        description: "Hamming distance of two 2048-bit strings",
        n: Some(4087),
        bucket: Some(5),
        total: Some(25432),
    },
];

/// The paper's claims, each quoted with its place.
#[derive(Clone, Debug, Serialize)]
pub struct Claims {
    /// Each claim: (what, the paper's value, where).
    pub items: Vec<(&'static str, &'static str, &'static str)>,
}

/// The claims Sec. 1 and Sec. 7 make in their text.
pub fn claims() -> Claims {
    Claims {
        items: vec![
            (
                "speed vs TinyLEGO, LAN",
                "more than 2x faster",
                "Sec. 7, Applications (and Sec. 1, TinyLEGO)",
            ),
            (
                "bandwidth vs TinyLEGO",
                "TinyLEGO uses 20-50% less bandwidth (JIMU 1.25-2x)",
                "Sec. 7, Applications",
            ),
            (
                "P1 (Alice) input",
                "0.57 us/wire",
                "Sec. 1, Implementation and Evaluation (Fig. 9: s = 40, k = 127, B = 5)",
            ),
            ("P2 (Bob) input", "8.24 us/wire", "Sec. 1 (Fig. 9)"),
            ("output", "0.02 us/wire", "Sec. 1 (Fig. 9)"),
            (
                "logical XOR",
                "105.3 M/s",
                "Sec. 1 (one thread, c4.2xlarge, LAN)",
            ),
            (
                "logical AND at B = 5",
                "45.5 K/s",
                "Sec. 1 (one thread, c4.2xlarge, LAN)",
            ),
            (
                "network",
                "LAN 2.5 Gbps, <1 ms latency; WAN 200 Mbps, 20 ms latency",
                "Sec. 7, Measurement Methodology",
            ),
        ],
    }
}
