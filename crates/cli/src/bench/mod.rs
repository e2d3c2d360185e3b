//! `brickyard bench …`: benchmarks reporting medians. Each benchmark is its
//! own module here; `--json` output is a documented interface
//! (`docs/bench-json.md`).

mod commit;
mod compgc_table;
mod garble;
mod ihash;
mod jimu_tables;
mod lego_tables;
mod lr_tables;
mod ot;
mod parse;
pub mod protocol;
mod report;
mod store;
mod tinytable_tables;
mod triples;
mod versus;

use clap::{Args, Subcommand};

use crate::error::CliResult;

/// `brickyard bench`: a protocol's phase table (flags below) or a
/// micro-benchmark (subcommands).
#[derive(Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = concat!("Examples:\n  \
    brickyard bench --protocol yao --circuit builtin:aes128 --executions 10\n  \
    brickyard bench --protocol yao --circuit builtin:aes128 --net wan --json\n  \
    brickyard bench garble --circuit ../shared/circuits/bristol_fashion/aes_128.txt\n  \
    brickyard bench ot --kind correlated --count 10000000\n  \
    brickyard bench parse ../shared/circuits/bristol_fashion/sha256.txt\n  \
    brickyard bench report --out docs/report\n\n",
    crate::localnet::spin_help!())
)]
pub struct BenchArgs {
    #[command(subcommand)]
    cmd: Option<BenchCmd>,
    #[command(flatten)]
    protocol: protocol::ProtocolBenchArgs,
}

/// Micro-benchmarks.
#[derive(Subcommand, Debug)]
pub enum BenchCmd {
    /// Median time to parse a Bristol file (the file is read once, parsed
    /// --runs times from memory).
    #[command(
        after_help = "Example:\n  brickyard bench parse ../shared/circuits/bristol_fashion/sha256.txt --json"
    )]
    Parse {
        /// A Bristol file.
        circuit: String,
        /// Number of timed parses.
        #[arg(long, default_value_t = 11)]
        runs: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Half-gates garbling and evaluation, ns per AND gate, one core.
    #[command(
        after_help = "Examples:\n  brickyard bench garble --circuit ../shared/circuits/bristol_fashion/sha256.txt --json\n  brickyard bench garble --circuit ../shared/circuits/bristol_fashion/aes_128.txt --iterations 2000 --runs 9\n  brickyard bench garble --circuit ../shared/circuits/bristol_fashion/aes_128.txt --labels 256 --iterations 500 --runs 5"
    )]
    Garble {
        /// A Bristol file or builtin:NAME.
        #[arg(long, default_value = "builtin:aes128")]
        circuit: String,
        /// Timed garblings (and evaluations) per run.
        #[arg(long, default_value_t = 50)]
        iterations: usize,
        /// Runs of ITERATIONS each, back to back; each run's medians are
        /// shown and the headline is their median (a shared machine's
        /// speed moves in steps lasting seconds, so make runs long enough
        /// to land on different steps: ~0.2 s each, e.g. 2000 iterations
        /// of AES-128).
        #[arg(long, default_value_t = 1)]
        runs: usize,
        /// Also JIMU's long labels (256 for k = 88, 384 for k = 127; Sec.
        /// 2.2, 6.2), measured in the same runs beside the 128-bit ones.
        #[arg(long, default_value_t = 128)]
        labels: u32,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Store write and read throughput on this machine's disk (MACs included).
    #[command(after_help = "Example:\n  brickyard bench store --dir /tmp --megabytes 1024 --json")]
    Store {
        /// A directory on the disk to measure (a scratch store is made and removed there).
        #[arg(long, default_value = ".")]
        dir: std::path::PathBuf,
        /// Amount of material to write and read back.
        #[arg(long, default_value_t = 512)]
        megabytes: u64,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// OT extension over loopback TCP, both parties in this process: IKNP
    /// (random, correlated, chosen), KOS (kos-*) or LEGO's Δ-ROT.
    #[command(
        after_help = "Example:\n  brickyard bench ot --kind chosen --count 1000000 --json\n  brickyard bench ot --kind kos-correlated --count 10000000"
    )]
    Ot {
        /// random, correlated, chosen, kos-correlated, kos-random, kos-chosen or delta-rot.
        #[arg(long, default_value = "correlated", value_parser = ["random", "correlated", "chosen", "kos-correlated", "kos-random", "kos-chosen", "delta-rot"])]
        kind: String,
        /// Number of OTs.
        #[arg(long, default_value_t = 10_000_000)]
        count: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// TinyOT authenticated AND triples (KOS aBits, leaky ANDs, bucketing)
    /// over loopback TCP, both parties in this process.
    #[command(after_help = "Example:\n  brickyard bench triples --count 1000000 --json")]
    Triples {
        /// Number of triples.
        #[arg(long, default_value_t = 1_000_000)]
        count: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// XOR-homomorphic commitments: µs per commit and decommit, both
    /// parties in this process.
    #[command(
        after_help = "Example:\n  brickyard bench commit --count 1000000 --threads 2 --json"
    )]
    Commit {
        /// Number of commitments γ.
        #[arg(long, default_value_t = 1_000_000)]
        count: usize,
        /// Worker threads per party.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// JIMU's XOR-homomorphic interactive hash (Sec. 4.2): sender-side
    /// i-hashes per second per core (thread CPU time) and verifications
    /// per second, both parties in this process.
    #[command(
        after_help = "Example:\n  brickyard bench ihash --set labels --k 88 --count 1000000 --runs 5 --json"
    )]
    Ihash {
        /// Which parameter set: wire labels (σ = 8) or permutation strings (σ = 6).
        #[arg(long, default_value = "labels", value_parser = ["labels", "perm"])]
        set: String,
        /// Computational security k of the labels (88 or 127).
        #[arg(long, default_value_t = 88)]
        k: u32,
        /// Statistical security s.
        #[arg(long, default_value_t = 40)]
        s: u32,
        /// Messages per batch.
        #[arg(long, default_value_t = 1_000_000)]
        count: usize,
        /// Timed batches (median).
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// NST17 Tables IV, V and VII: lego (and yao) for AES-128 (1, 32, 128,
    /// 1024) and SHA-256 (1, 32, 128), per phase, loopback and the paper's
    /// WAN. Both parties' material is held in memory (about 4.7 kB per AND
    /// gate at peak): a row that would not fit in the available memory is
    /// skipped with a message, e.g. 1024 x AES-128 (about 33 GB).
    #[command(
        name = "lego-tables",
        after_help = concat!(
            "Example:\n  brickyard bench lego-tables --max-circuits 32 --wan --json\n\n",
            crate::localnet::spin_help!()
        )
    )]
    LegoTables {
        /// Skip rows with more circuits than this (1024 adds the 1024 x
        /// AES-128 row).
        #[arg(long, default_value_t = 128)]
        max_circuits: usize,
        /// Also run under the shaped WAN (81 ms RTT, 214 Mbit/s).
        #[arg(long)]
        wan: bool,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Lindell–Riva's Tables 2–7 (CCS'15): lindell-riva beside lego and
    /// yao for ADD-32, AES-128 and SHA-256 at N = 32, 128, 1024, offline
    /// and online ms per execution and bytes, loopback and shaped, beside
    /// the paper's figures; optional SVG plots against N.
    #[command(name = "lr-tables")]
    LrTables(lr_tables::LrTablesArgs),
    /// JIMU's Sec. 7 (Zhu–Huang): jimu at k = 88 and 127 beside lego on
    /// AES-128, 10 000-bit compare and 2048-bit Hamming, per phase,
    /// loopback, LAN and WAN, with the paper's ratio claims; and the
    /// microbenchmarks (input/output µs per wire, XOR/s, AND/s at B = 5).
    #[command(name = "jimu-tables")]
    JimuTables(jimu_tables::JimuTablesArgs),
    /// The CompGC paper's Table 2: online time and bits Bob receives,
    /// naive yao vs compgc, loopback and shaped (33 ms, 50 Mbit/s).
    #[command(
        name = "compgc-table",
        after_help = concat!(
            "Example:\n  brickyard bench compgc-table --runs 3 --json\n\n",
            crate::localnet::spin_help!()
        )
    )]
    CompgcTable {
        /// Timed runs per cell (median).
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// The standard set (every protocol on AES-128 and SHA-256, loopback
    /// and WAN, an RTT sweep and an executions sweep) as DIR/report.md
    /// with SVG plots.
    Report(report::ReportArgs),
    /// Malicious protocols as issue #30's table beside emp-ag2pc: each
    /// party a fresh `brickyard run` process, medians of alternating
    /// rounds, ms and bytes per phase; a peer's row from a file beside ours.
    Versus(versus::VersusArgs),
    /// TinyTable's Tables 1–3: table bytes, sequential latency and
    /// amortised time per AES (S-box and binary, every MAC), beside the
    /// paper's figures. Trusted-dealer tables.
    #[command(after_help = concat!(
        "Example:\n  brickyard bench tinytable-tables --json\n\n",
        crate::localnet::spin_help!()
    ))]
    TinytableTables {
        /// Sequential executions per row (median latency).
        #[arg(long, default_value_t = 20)]
        runs: usize,
        /// Executions run in lockstep for the amortised time.
        #[arg(long, default_value_t = 64)]
        batch: usize,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Runs one benchmark.
pub fn run(args: BenchArgs) -> CliResult {
    match args.cmd {
        Some(BenchCmd::Parse {
            circuit,
            runs,
            json,
        }) => parse::run(&circuit, runs, json),
        Some(BenchCmd::Garble {
            circuit,
            iterations,
            runs,
            labels,
            json,
        }) => garble::run(&circuit, iterations, runs, labels, json),
        Some(BenchCmd::Ot { kind, count, json }) => ot::run(&kind, count, json),
        Some(BenchCmd::Triples { count, json }) => triples::run(count, json),
        Some(BenchCmd::Commit {
            count,
            threads,
            json,
        }) => commit::run(count, threads, json),
        Some(BenchCmd::Ihash {
            set,
            k,
            s,
            count,
            runs,
            json,
        }) => ihash::run(&set, k, s, count, runs, json),
        Some(BenchCmd::CompgcTable { runs, json }) => compgc_table::run(runs, json),
        Some(BenchCmd::LegoTables {
            max_circuits,
            wan,
            json,
        }) => lego_tables::run(max_circuits, wan, json),
        Some(BenchCmd::LrTables(a)) => lr_tables::run(a),
        Some(BenchCmd::JimuTables(a)) => jimu_tables::run(a),
        Some(BenchCmd::Store {
            dir,
            megabytes,
            json,
        }) => store::run(&dir, megabytes, json),
        Some(BenchCmd::Report(a)) => report::run(a),
        Some(BenchCmd::Versus(a)) => versus::run(a),
        Some(BenchCmd::TinytableTables { runs, batch, json }) => {
            tinytable_tables::run(json, runs, batch)
        }
        None => protocol::run(args.protocol),
    }
}

/// Median of durations in milliseconds (0 for none).
pub(crate) fn median_ms(ms: Vec<f64>) -> f64 {
    brickyard_protocols::report::median(&ms)
}
