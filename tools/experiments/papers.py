"""The experiments tools/experiments/run.py knows: for each paper, the machine
it was evaluated on (a simtlab preset) and the configurations it compares.

A configuration names the divergence mechanism it runs (-simtlab_simt),
any other options it sets (a warp scheduler, ...) and,
where the paper's comparison needs more than a mechanism, the model feature
simtlab still lacks (`missing`). Configurations whose mechanism simtlab
does not have, or that miss a feature, are listed as "not available yet"
and skipped; the others run. The first configuration is the baseline the
speedups are taken over.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """One column of a paper's comparison."""

    label: str  # the name in the tables (the mechanism's unless it differs)
    mechanism: str  # the -simtlab_simt value it runs
    what: str  # what the paper calls it
    missing: str = ""  # a model feature simtlab lacks for it ("" when none)
    sim_set: tuple = ()  # more -OPTION=VALUE assignments it runs with
    defines: tuple = ()  # nvcc -D options of the program variant it runs (its own build)
    ptx_ext: bool = False  # the variant uses simtlab's extensions of PTX (simtlab exec --ptx-ext simtlab)
    variant: str = ""  # what the variant adds to the program's name on its PASS line
    # a configuration chosen per program from two others' runs instead of run itself (LAMAR's static
    # granularity unit): (coarse, fine) labels; fine where the coarse run's L1 Avg_sec is at most
    # static_avg_sec
    static_of: tuple = ()
    static_avg_sec: float = 2.0


@dataclass(frozen=True)
class Experiment:
    """One paper's headline comparison."""

    name: str
    title: str
    presets: tuple  # the machine(s) of the paper, simtlab preset names
    configs: tuple  # Config, the baseline first
    notes: str = ""
    # the paper's split of its benchmarks: divergent when the baseline's
    # SIMD utilization is below this (0: no split)
    divergent_below: float = 0.0
    suite: str = "divergent"  # the programs' folder under testdata/cudart
    programs: tuple = ()  # the programs it runs by default (all of the suite's when empty)
    args: tuple = ()  # command-line arguments of every program run
    dram_columns: bool = False  # the tables show DRAM traffic, row-buffer hits, bus use and energy
    # the tables' kind beyond the common one: "paver" (thread-block scheduling: the speedup with the JIT
    # time, L1D miss rate and classes, L2 accesses, stolen blocks) or "snooze" (cache leakage and power states)
    columns: str = ""
    # named sets of programs the tables also average over (name, programs), e.g. the inter-TB locality classes
    classes: tuple = ()


def db_variant(label, what, macros=(), suffix="", sim_set=()):
    """A configuration running a database program's variant (Narasiman's Ch. 7): built with the -D macros,
    whose PASS line adds suffix to the program's name, with simtlab's PTX extensions when it has macros."""
    return Config(label, "pdom", what, defines=tuple(f"-D{m}" for m in macros), ptx_ext=bool(macros),
                  variant=suffix, sim_set=sim_set)


def avoidance(label, tracker, predictor, note, pipeline="replay"):
    """A configuration of Turner's hazard avoidance (Ch. 6): a tracker and a
    predictor on the replay (or stalling) pipeline."""
    return Config(label, "pdom", f"{pipeline} with hazard avoidance: {tracker} tracker, {predictor} predictor "
                  f"({note})",
                  sim_set=(f"-simtlab_mem_pipeline={pipeline}", f"-simtlab_hazard_tracker={tracker}",
                           f"-simtlab_hazard_predictor={predictor}"))


# Turner's configurations (Table 4.2's machine): the stalling baseline first.
TURNER_CONFIGS = (
    Config("stall", "pdom", "the stalling baseline (Table 4.2: hazards hold the memory stage)",
           sim_set=("-simtlab_mem_pipeline=stall",)),
    Config("retain", "pdom", "stalling with replay's warp-buffer retention (Sec. 7.1.1, Fig. 7.1)",
           sim_set=("-simtlab_mem_pipeline=stall-retain",)),
    Config("replay", "pdom", "replay: squash and replay what cannot pass the memory stage (Ch. 5, Fig. 5.1)",
           sim_set=("-simtlab_mem_pipeline=replay",)),
    avoidance("credit-false", "credit", "false", "the thesis's best"),
    avoidance("credit-true", "credit", "true", "Fig. 7.8"),
    avoidance("credit-pred", "credit", "counter", "PC-indexed saturating counters, Fig. 7.8"),
    avoidance("credit-oracle", "credit", "oracle", "Fig. 7.8"),
    avoidance("naive-false", "naive", "false", "Fig. 7.8"),
    Config("replay-mshr64", "pdom", "replay with 64 L1D MSHRs (the MSHR sweep, Figs. 6.1, 6.2)",
           sim_set=("-simtlab_mem_pipeline=replay", "-gpgpu_cache:dl1=N:64:128:6,L:B:m:N:H,S:64:8,8")),
    Config("replay-mshr128", "pdom", "replay with 128 L1D MSHRs (the MSHR sweep)",
           sim_set=("-simtlab_mem_pipeline=replay", "-gpgpu_cache:dl1=N:64:128:6,L:B:m:N:H,S:128:8,8")),
    Config("replay-sep4-2-2", "pdom", "replay with separated collector slots, 4 ALU, 2 SFU, 2 MEM "
           "(Sec. 7.1.2, Fig. 7.15)",
           sim_set=("-simtlab_mem_pipeline=replay", "-gpgpu_operand_collector_num_units_gen=0",
                    "-gpgpu_operand_collector_num_units_sp=4", "-gpgpu_operand_collector_num_units_sfu=2",
                    "-gpgpu_operand_collector_num_units_mem=2")),
    avoidance("stall-credit-true", "credit", "true", "without replay, Sec. 7.2.3, Fig. 7.13", "stall"),

)


# The core clocks (MHz) of the presets whose kernel time the tables convert cycles into: the first
# field of -gpgpu_clock_domains in timing/presets.c (GTX480 700, TITANX 1417, TITANV 1200; the
# thesis's Table 3.1 gives Pascal 1 GHz, GPGPU-Sim's SM6_TITANX and the preset 1417 MHz).
CORE_MHZ = {"GTX480": 700.0, "TITANX": 1417.0, "TITANV": 1200.0}


def paver(label, sched, what, steal=True):
    """A configuration of Tripathy's Ch. 3: a thread-block scheduler under GTO warp scheduling (the thesis's
    for every policy, Sec. 3.5.1), with the L1D and L2 misses classified (cold, capacity, conflict)."""
    sim_set = ("-gpgpu_scheduler=gto", f"-simtlab_tb_sched={sched}", "-simtlab_miss_classes=1")
    return Config(label, "pdom", what, sim_set=sim_set + (() if steal else ("-simtlab_tb_steal=0",)))


def snooze(label, granularity, what):
    """A configuration of Tripathy's Ch. 5: Snooze's cache power states at one granularity (none: always ON),
    under GTO warp scheduling (Sec. 5.3)."""
    return Config(label, "pdom", what, sim_set=("-gpgpu_scheduler=gto", f"-simtlab_snooze={granularity}"))


def slumber(label, policy, what, rest=None):
    """A configuration of Tripathy's Ch. 6: the register file's power states under one policy (on: every
    register ON, the baseline, with the same register-allocator occupancy as the others), under the two-level
    warp scheduling the thesis ran (Sec. 6.4, its reference [99]: Narasiman et al.'s two-level round robin,
    fetch groups of 8 warps); rest, where given, is Slumber's -simtlab_rf_rest (None: the default, buffer)."""
    sim_set = ("-gpgpu_scheduler=fetch_groups:8", f"-simtlab_rf_power={policy}")
    return Config(label, "pdom", what, sim_set=sim_set + ((f"-simtlab_rf_rest={rest}",) if rest else ()))


# The locality suite's classes (testdata/cudart/locality/README.md): blocks that read the same data, and
# blocks that share nothing (the thesis's "high" and "none" inter-TB locality, Sec. 3.5.2).
LOCALITY_CLASSES = (("high", ("mm", "syrk", "syr2k", "gemm", "mm2", "hotspot", "conv2d", "mvt")),
                    ("none", ("vadd", "blackscholes")))

EXPERIMENTS = {
    "fung2011": Experiment(
        name="fung2011",
        title="Fung & Aamodt, Thread Block Compaction for Efficient SIMT Control Flow, HPCA 2011",
        presets=("FX5800",),
        configs=(
            Config("pdom", "pdom", "PDOM: per-warp immediate post-dominator reconvergence stack"),
            Config("tbc", "tbc", "TBC: thread block compaction, one block-wide stack"),
            Config("pdom-lpc", "pdom-lpc", "PDOM with likely-convergence points (Sec. 4)"),
            Config("tbc-lpc", "tbc-lpc", "TBC with likely-convergence points (Table 3's TBC-LCP)"),
            Config("dwf", "dwf", "dynamic warp formation (Fung et al., MICRO 2007)"),
            Config("dwf-wb", "dwf-wb", "dynamic warp formation with the warp barrier (Sec. 2.4)"),
        ),
        notes="Fig. 12: TBC +22% over PDOM on the divergent set, +10% on all; Table 3: TBC-LCP stack depths. "
        "The paper's divergent set (DIVG) has a SIMD efficiency below 76% under PDOM, the rest is coherent (COHE).",
        divergent_below=0.76,
    ),
    "rhu2014": Experiment(
        name="rhu2014",
        title="Rhu, Performance-Efficient Mechanisms for Managing Irregularity in Throughput Processors, "
        "PhD thesis, UT Austin 2014, Ch. 4: CAPRI and SIMD lane permutation",
        presets=("RHU_TBC",),
        configs=(
            Config("pdom", "pdom", "No_TBC: the per-warp PDOM stack"),
            Config("tbc", "tbc", "TBC (Fung & Aamodt), the chapter's baseline compaction"),
            Config("tbc+", "tbc+", "TBC+: no synchronization at unconditional or CTA-uniform branches"),
            Config("capri", "capri", "CAPRI: compaction-adequacy prediction (Sec. 4.2)"),
            Config("capri-ce", "capri-ce", "cost-effective CAPRI: only divergent warps wait (Sec. 4.5.3)"),
            Config("tbc+slp", "tbc+", "TBC+ with SIMD lane permutation, Balanced (Sec. 4.3)",
                   sim_set=("-simtlab_slp=balanced",)),
            Config("tbc-ideal", "tbc-ideal", "TBC_ideal: threads may change lanes, the bound (Eq. 4.1)"),
        ),
    ),
    "rhu2014-dpe": Experiment(
        name="rhu2014-dpe",
        title="Rhu, Performance-Efficient Mechanisms for Managing Irregularity in Throughput Processors, "
        "PhD thesis, UT Austin 2014, Ch. 3: dual-path execution",
        presets=("RHU_DPE",),
        configs=(
            Config("pdom", "pdom", "SPE: single-path execution, the per-warp PDOM stack"),
            Config("dws_10", "dws", "dynamic warp subdivision (Meng et al., ISCA 2010), threshold 10 (Sec. 3.1.2)",
                   sim_set=("-simtlab_dws_threshold=10",)),
            Config("dws_50", "dws", "dynamic warp subdivision, threshold 50 (Meng et al.'s choice)",
                   sim_set=("-simtlab_dws_threshold=50",)),
            Config("dws_100", "dws", "dynamic warp subdivision, threshold 100", sim_set=("-simtlab_dws_threshold=100",)),
            Config("dws_50-mem", "dws", "dws_50 that also subdivides on memory divergence (Meng et al.; the thesis "
                   "leaves it out, Sec. 3.4.3)", sim_set=("-simtlab_dws_threshold=50", "-simtlab_dws_memory=1")),
            Config("dpe", "dpe", "dual-path execution (Sec. 3.2)"),
            Config("dpe-constrained", "dpe-constrained", "dual-path execution with the constrained scheduler "
                   "(Sec. 3.2.3)"),
            Config("dpe+fwd", "dpe", "dual-path execution with path forwarding (Sec. 3.4.1, the upper-bound study)",
                   sim_set=("-simtlab_dpe_forwarding=1",)),
        ),
    ),
    "rhu2014-lamar": Experiment(
        name="rhu2014-lamar",
        title="Rhu, PhD thesis, UT Austin 2014, Ch. 5: LAMAR, the locality-aware memory hierarchy",
        presets=("RHU_LAMAR",),
        configs=(
            Config("cg", "pdom", "CG-only: every miss fetches the whole 128-byte block (the baseline)",
                   sim_set=("-simtlab_lamar=cg",)),
            Config("fg", "pdom", "FG-only: the sectors asked for", sim_set=("-simtlab_lamar=fg",)),
            Config("spp", "pdom", "the spatial pattern predictor (1M-entry history)", sim_set=("-simtlab_lamar=spp",)),
            Config("bgp", "pdom", "the bi-modal granularity predictor (Sec. 5.3.2)", sim_set=("-simtlab_lamar=bgp",)),
            Config("bgp_inf", "pdom", "BGP with a 1M-entry history", sim_set=("-simtlab_lamar=bgp_inf",)),
            Config("static", "pdom", "the static unit: CG or FG per program, FG where a profile (the CG run) "
                   "finds an L1 Avg_sec of 2 or less (Sec. 5.3.2)", static_of=("cg", "fg")),
            Config("bgp-64B", "pdom", "BGP without sub-ranks: 64-byte bursts (Fig. 5.15's 64-byte configuration)",
                   sim_set=("-simtlab_lamar=bgp", "-simtlab_dram_subranks=1")),
        ),
        notes="Fig. 5.12: on the FG-leaning benchmarks (Avg_sec <= 2) the predictors average +12-14% over CG-only "
        "(max +49%); CG-leaning ones stay near CG-only, where FG-only loses 4-22%. Off-chip traffic: BGP -33% "
        "(max 64%) on sub-ranked GDDR5, -20% with 64-byte bursts (Fig. 5.15); DRAM power (Fig. 5.13): FG-only "
        "-19%, BGP -8% on the FG-leaning set.",
        dram_columns=True,
    ),
    "rhu2014-pca": Experiment(
        name="rhu2014-pca",
        title="Rhu, PhD thesis, UT Austin 2014, Ch. 6: priority-based cache allocation",
        presets=("RHU_PCA",),
        configs=(
            Config("max-cta", "pdom", "the baseline: every CTA the core holds, no tokens"),
            Config("pca-1", "pdom", "1 token per scheduler (2 per core)", sim_set=("-simtlab_pca_tokens=1",)),
            Config("pca-2", "pdom", "2 tokens per scheduler (4 per core), the thesis's best on average",
                   sim_set=("-simtlab_pca_tokens=2",)),
            Config("pca-4", "pdom", "4 tokens per scheduler (8 per core)", sim_set=("-simtlab_pca_tokens=4",)),
            Config("pca-6", "pdom", "6 tokens per scheduler (12 per core)", sim_set=("-simtlab_pca_tokens=6",)),
            Config("pca-2-fpfr", "pdom", "2 tokens and FP-FRFCFS DRAM scheduling (Sec. 6.4's proposal)",
                   sim_set=("-simtlab_pca_tokens=2", "-simtlab_dram_priority=fp-frfcfs")),
            Config("cta-4", "pdom", "CTA throttling: at most 4 CTAs per core", sim_set=("-gpgpu_shader_cta=4",)),
        ),
        notes="Fig. 6.4: on its 4 cache-sensitive benchmarks PCA with 2 tokens per scheduler averages +14% over the "
        "best static CTA count (CoMD +10%, BFS +8%, SSSP +9%, KMEANS +39%).",
    ),
    "narasiman": Experiment(
        name="narasiman",
        title="Narasiman et al., Improving GPU Performance via Large Warps and Two-Level Warp Scheduling, "
        "MICRO 2011 (and Narasiman's PhD thesis)",
        presets=("NARASIMAN",),
        configs=(
            Config("pdom", "pdom", "the baseline per-warp PDOM stack"),
            Config("tbc", "tbc", "TBC, the thesis's comparison point"),
            Config("2lev", "pdom", "two-level round-robin warp scheduling, 4 fetch groups of 8 warps (Sec. 4.3)",
                   sim_set=("-gpgpu_scheduler=fetch_groups:8",)),
            Config("lwm", "lwm", "the large warp microarchitecture, 256-thread large warps (Sec. 4.2)"),
            Config("lwm-2lev", "lwm", "large warps with two-level round-robin scheduling, a large warp per fetch "
                   "group and the 32K-instruction timeout (Sec. 4.4)",
                   sim_set=("-gpgpu_scheduler=fetch_groups:8:32768",)),
        ),
    ),
    "turner": Experiment(
        name="turner",
        title="Turner, On Replay and Hazards in Graphics Processing Units, MASc thesis, UBC 2012",
        presets=("TURNER",),
        configs=TURNER_CONFIGS,
        notes="The thesis compares pipelines, not divergence mechanisms: every configuration runs PDOM. "
        "Replay +/- over stalling per benchmark (Fig. 5.1: memory-intensive ones gain); hazard prediction up to "
        "13.3% over stalling and 3.3% over replay; credit false the most consistent (Ch. 8).",
    ),
    "turner-memory": Experiment(
        name="turner-memory",
        title="Turner, On Replay and Hazards in GPUs, MASc thesis, UBC 2012, on the memory-intensive suite",
        presets=("TURNER",),
        configs=TURNER_CONFIGS,
        notes="The thesis's gains come from its memory-intensive benchmarks (BFS2, CFD, SRAD, SS: Fig. 5.1, Ch. 7): "
        "replay and hazard prediction up to 13.3% over stalling.",
        suite="memory",
    ),
    "narasiman-scan": Experiment(
        name="narasiman-scan",
        title="Narasiman, PhD thesis, UT Austin, Ch. 7-8: conditional accumulate in the full table scan",
        presets=("NARASIMAN_DB",),
        configs=(
            Config("ballot", "pdom", "the baseline: ballot, popc and the lane mask (Sec. 6.2.2)"),
            db_variant("cond-acc", "conditional accumulate, simtlab.cond_acc (Sec. 7.1)", ("SIMTLAB_EXT",), "_ext"),
        ) + tuple(
            # Fig. 8.3's bandwidth sweep: 16, 8 and 4 GB/s by narrower chips (the DRAM clock and timing
            # unchanged, as the thesis lowers bandwidth, not latency)
            db_variant(f"{label}-{gbps}GBs", f"{what} at {gbps} GB/s", macros, suffix,
                       (f"-gpgpu_dram_buswidth={gbps // 4}",))
            for gbps in (16, 8, 4)
            for label, what, macros, suffix in (("ballot", "the baseline", (), ""),
                                                ("cond-acc", "conditional accumulate", ("SIMTLAB_EXT",), "_ext"))),
        notes="Fig. 8.1: +21% with conditional accumulate at 50% selectivity, 20% fewer warp instructions, a "
        "row-buffer hit rate of 95%; Fig. 8.3: the gain holds down to 8 GB/s and vanishes at 4 GB/s (memory "
        "bound; the *-GBs rows' speedups are over ballot at 32 GB/s: compare cond-acc-N with ballot-N for the gain "
        "at N GB/s); Fig. 8.2 (selectivity 50% to 1/1024, --args ROWS,PERCENT,4): about the same gain down to 12.5%, "
        "then less. Table 8.1's scan is over 4 M rows; one core of 1024 threads.",
        suite="database",
        programs=("table_scan",),
        args=("4194304", "50", "4"),
        dram_columns=True,
    ),
    "narasiman-index": Experiment(
        name="narasiman-index",
        title="Narasiman, PhD thesis, UT Austin, Ch. 7-8: tree traverse and row-buffer hints in the index search",
        presets=("NARASIMAN_DB",),
        configs=(
            Config("ballot", "pdom", "the baseline traversal: ballot and popc (Sec. 6.2.3)"),
            db_variant("tt", "tree traverse, simtlab.tree_traverse (Sec. 7.2.1)", ("SIMTLAB_TT",), "_tt"),
            db_variant("hint", "row-buffer hints on each row node's first load, a 200-cycle hold (Sec. 7.2)",
                       ("SIMTLAB_HINT",), "_hint"),
            db_variant("tt-hint", "tree traverse and hints (Fig. 8.4's last bar)", ("SIMTLAB_TT", "SIMTLAB_HINT"),
                       "_tt_hint"),
            db_variant("hint-hold400", "hints with a 400-cycle hold (beyond the break-even point)",
                       ("SIMTLAB_HINT",), "_hint", ("-simtlab_dram_row_hold=400",)),
            db_variant("tt-hint-hold400", "tree traverse and hints with a 400-cycle hold",
                       ("SIMTLAB_TT", "SIMTLAB_HINT"), "_tt_hint", ("-simtlab_dram_row_hold=400",)),
        ),
        notes="Fig. 8.4: tree traverse alone changes little (memory bound); hints raise the row-buffer hit rate "
        "from below 10% to almost 50% and throughput by 34%; both by 39%. The thesis's 3-level tree (0.9 G keys, "
        "3.5 GB: a run needs about 14 GB of host memory, so --jobs 1) and 16K of its 128K queries, on one core of "
        "1024 threads.",
        suite="database",
        programs=("index_search",),
        args=("3", "16384", "4"),
        dram_columns=True,
    ),
    "tripathy-paver": Experiment(
        name="tripathy-paver",
        title="Tripathy, Improving Performance and Energy Efficiency of GPUs through Locality Analysis, "
        "PhD thesis, UC Riverside 2021, Ch. 3: PAVER, locality-graph-based thread-block scheduling",
        presets=("GTX480", "TITANX", "TITANV"),
        configs=(
            paver("lrr", "lrr", "LRR: loose round-robin, the GigaThread baseline (Sec. 3.5.1)"),
            paver("bcs", "bcs", "BCS: two consecutive blocks at a time to one SM (Lee et al., HPCA 2014)"),
            paver("mst", "mst", "MST-TS: blocks in the order of the locality graph's maximum spanning tree "
                  "(Sec. 3.3.1)"),
            paver("kway", "kway", "Kway-TS: a k-way METIS partition, one part per SM, with task stealing "
                  "(Sec. 3.3.2, 3.4.2)"),
            paver("rb", "rb", "RB-TS: recursive bisection down to the blocks that run together, with task "
                  "stealing (Sec. 3.3.3)"),
            paver("kway-nosteal", "kway", "Kway-TS without task stealing", steal=False),
            paver("rb-nosteal", "rb", "RB-TS without task stealing", steal=False),
        ),
        notes="Fig. 3.11 (speedup over LRR, including the JIT analysis time: baseline kernel time / (kernel time "
        "+ graph and partition time), kernel time = cycles / core clock, Sec. 3.5.1): RB-TS +29% / +49.1% / "
        "+41.2% on the high inter-TB locality apps on Fermi / Pascal / Volta (Kway-TS +23.8/+32.5/+28.6%, MST-TS "
        "+2.8/+10.8/+4.5%), -0.5% on the apps without sharing (Fermi); overall RB-TS +12.6/+20.49/+17.4%. "
        "BCS slower than LRR (HS 22%, SYRK 9%, SYR2K 7%). Fig. 3.12: RB-TS lowers the Fermi L1 miss rate by "
        "43.3% on the high-locality apps (21% on all); Fig. 3.13: L2 accesses 56.7% / 51.59% / 59.8% of LRR's "
        "on the high-locality apps (RB-TS), 61.4/67/65% (Kway-TS). Task stealing: +3% Kway-TS, +2% RB-TS (Fermi). "
        "Every configuration runs the GTO warp scheduler.",
        suite="locality",
        columns="paver",
        classes=LOCALITY_CLASSES,
    ),
    "tripathy-snooze": Experiment(
        name="tripathy-snooze",
        title="Tripathy, PhD thesis, UC Riverside 2021, Ch. 5: Snooze, ON/Sleep/OFF power states for the L1D "
        "and L2 data arrays",
        presets=("GTX480", "TITANX", "TITANV"),
        configs=(
            snooze("none", "none", "always ON: the leakage baseline"),
            snooze("bank", "bank", "bank-level: an SM's whole L1D, or an L2 bank, changes state at once (Sec. 5.3)"),
            snooze("block", "block", "block-level: each cache block changes state on its own (Sec. 5.3)"),
        ),
        notes="Figs. 5.11-5.13, leakage as a share of always ON (L1 bank / block, L2 bank / block): Fermi "
        "28.56% / 11.17%, 36.27% / 7.31%; Pascal 31.62% / 6.21%, 30.87% / 5.37%; Volta 25.03% / 4.03%, "
        "26.49% / 4.28%. Fermi geometric means of the cycle shares OFF / Sleep / ON (Figs. 5.7-5.10): L1 bank "
        "9.95 / 42.61 / 12.50%, block 27.72 / 24.50 / 1.19%; L2 bank 0.86 / 76.81 / 12.78%, block 37.49 / "
        "14.85 / 0.08%. Performance: \"negligible performance penalty\" (no number). GTO warp scheduling.",
        suite="locality",
        columns="snooze",
        classes=LOCALITY_CLASSES,
    ),
    "tripathy-slumber": Experiment(
        name="tripathy-slumber",
        title="Tripathy, PhD thesis, UC Riverside 2021, Ch. 6: Slumber, ON/SS/DS/OFF power states for the "
        "register file's warp-registers",
        presets=("GTX480",),
        configs=(
            slumber("on", "on", "every register ON: the leakage baseline (the allocator's registers and occupancy)"),
            slumber("slumber", "slumber", "Slumber: each 128-byte warp-register ON, Shallow Sleep, Deep Sleep or "
                    "OFF by its predicted idle period and next access (Sec. 6.3); a live register rests ON, SS or "
                    "DS by the warp's instruction buffer and the L1I (Sec. 6.3.3; -simtlab_rf_rest buffer)"),
            slumber("slumber-deep", "slumber", "Slumber with every live register resting in Deep Sleep after an "
                    "access (-simtlab_rf_rest deep; the earlier results' \"slumber\")", rest="deep"),
            slumber("wrf", "wrf", "a Warped-Register-File-like policy (Abdel-Majeed et al.): allocated registers "
                    "drowsy except while accessed (Sec. 6.4's comparison)"),
        ),
        notes="Sec. 6.4 (Fermi, 15 SMs, two-level warp scheduling, 10 benchmarks): leakage energy saved 94% by "
        "Slumber and 85% by WRF (leakage 6% and 15% of always ON), a 1.2% performance penalty on average. "
        "Sec. 6.1: utilization of the file / a bank / a warp's registers / a register 32.7 / 16.3 / 3.9 / 0.2%; "
        "Figs. 6.7-6.8: over 75% of the idle cycles in periods longer than 16 cycles, the idle cycles 26.3% OFF, "
        "53.5% Deep Sleep, 20.1% Shallow Sleep. Two-level round-robin warp scheduling here too (fetch groups of 8 "
        "warps, as in the thesis's reference [99]).",
        suite="locality",
        columns="slumber",
        classes=LOCALITY_CLASSES,
    ),
    # Not a paper: the suite on the default machine and mechanism, the
    # measurements of testdata/cudart/divergent/README.md.
    "suite": Experiment(
        name="suite",
        title="The divergent suite on QV100 with PDOM",
        presets=("QV100",),
        configs=(Config("pdom", "pdom", "the per-warp PDOM stack"),),
    ),
}
