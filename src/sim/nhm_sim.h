/*
 * nhm_sim.h - the Nehalem-EP / Westmere-EP personality of the emulated
 * machine (gen=nhm-ep, gen=wsm-ep): the same memory hierarchy as SNB-EP,
 * seen through the Xeon 5500/5600 uncore PMU (one per socket, MSR space,
 * eight general counters and the fixed UCLK counter under one global
 * control) and the Nehalem offcore-response MSRs.  doc/sim-nhm.md says
 * what is modeled, what is refused and what differs from silicon.
 *
 * The hierarchy raises its events into the SNB-EP boxes' queues
 * (sim_events.h); on these machines those boxes have no registers, and
 * the queued events are replayed here (sim_nhm_replay) against the
 * uncore's counters instead.  The registers are the SDM's (vol. 3B, the
 * Xeon 5500 uncore; vol. 4's MSR list); this file and nhm_*.c decode them
 * on their own, sharing nothing with libpmon's tables (src/nhm/).
 */
#ifndef PMON_SIM_NHM_SIM_H
#define PMON_SIM_NHM_SIM_H

#include "sim_machine.h"

#pragma GCC visibility push(hidden)

#define SIM_GEN_NHM(g) ((g) == PMON_SIM_GEN_NHMEP || (g) == PMON_SIM_GEN_WSMEP)
#define SIM_NHM_CORES(g) ((g) == PMON_SIM_GEN_WSMEP ? 6 : 4)

/* Uncore MSRs (per socket, reached from any of its CPUs). */
#define NHM_GLB_CTL     0x391u   /* MSR_UNCORE_PERF_GLOBAL_CTRL */
#define NHM_GLB_STATUS  0x392u   /* MSR_UNCORE_PERF_GLOBAL_STATUS (read-only) */
#define NHM_GLB_OVF     0x393u   /* MSR_UNCORE_PERF_GLOBAL_OVF_CTRL (write 1 to clear) */
#define NHM_FIXED_CTR   0x394u   /* MSR_UNCORE_FIXED_CTR0 (UCLK) */
#define NHM_FIXED_CTL   0x395u   /* MSR_UNCORE_FIXED_CTR_CTRL */
#define NHM_MATCH       0x396u   /* MSR_UNCORE_ADDR_OPCODE_MATCH */
#define NHM_CTR0        0x3b0u   /* MSR_UNCORE_PMC0..7 */
#define NHM_SEL0        0x3c0u   /* MSR_UNCORE_PERFEVTSEL0..7 */
#define NHM_MESF        0x301u   /* MSR_GQ_SNOOP_MESF */
#define NHM_NCTR        8
#define NHM_WIDTH       48

/* Register bits.  Global control: EN_PC0-7 (7:0), EN_FC0 (32), EN_PMI_CORE0-3
 * (51:48), PMI_FRZ (63).  Status and overflow control: OV_PC0-7 (7:0),
 * OV_FC0 (32), OVF_PMI (61), CHG (63).  Event select: ev 7:0, umask 15:8,
 * occupancy reset 17, edge 18, PMI 20, enable 22, invert 23, cmask 31:24. */
#define NHM_GLB_VALID     (0xffull | 1ull << 32 | 0xfull << 48 | 1ull << 63)
#define NHM_STATUS_VALID  (0xffull | 1ull << 32 | 1ull << 61 | 1ull << 63)
#define NHM_SEL_VALID     0xffd6ffffull
#define NHM_SEL_OCC_RST   (1u << 17)
#define NHM_FIXED_VALID   0x5ull        /* enable 0, PMI 2 */
#define NHM_MATCH_VALID   0xe000fffffffffff8ull
#define NHM_MESF_VALID    0xffull

/* A counter's event as decoded (sim_ctr.sig): 0x100 | the event code when
 * the model drives that event with that umask (sim_ctr.arg), else 0. */
#define NHM_SIG(code) (0x100u | (code))

struct sim_nhm_unc {
	struct sim_ctr ctr[NHM_NCTR], fixed;
	uint64_t glb_ctl, glb_status, match, mesf;
	int active;             /* some counter counts a memory event now */
};

struct sim_nhm {
	int gen, wsm, erratum;
	struct sim_nhm_unc unc[SIM_MAX_SOCKETS];
	/* MSR_OFFCORE_RSP_0/1 per physical core (socket * cores + core): the
	 * threads of a core share them on Nehalem and Westmere */
	uint64_t rsp[SIM_MAX_SOCKETS * SIM_MAX_CORES][2];
};

/* ---- shape (nhm_shape.c) ---- */
int sim_gen_parse(const char *val, size_t vlen);       /* enum pmon_sim_gen, -1 */
const char *sim_gen_name(int gen);
/* The generation's defaults on top of SNB-EP's. */
void sim_gen_defaults(struct pmon_sim_shape *sh, int gen);
/* A key given with value v: 0, or -1 with err filled (the key does not
 * apply to the generation, or v is outside its range there). */
int sim_gen_key_check(int gen, const char *key, uint64_t v, char *err, size_t errlen);

/* ---- registers (nhm_msr.c) ---- */
/* At creation: sim->nhm for a Nehalem shape (0, or -1 out of memory). */
int sim_nhm_init(struct pmon_sim *sim);
void sim_nhm_free(struct pmon_sim *sim);
/* The uncore's and the offcore RSP MSRs: 1 when msr is one (*rc its result). */
int sim_nhm_msr(struct pmon_sim *sim, int cpu, uint32_t msr, int wr, uint64_t *val, int *rc);
/* The uncore counter a read of (cpu, msr) reaches, NULL if none. */
const struct sim_ctr *sim_nhm_counter(const struct pmon_sim *sim, int cpu, uint32_t msr);
/* The counters counting a clock now (the fixed UCLK counters), for
 * sim_clock.c's list: fn(sim, counter) for each. */
void sim_nhm_clocks(struct pmon_sim *sim, void (*fn)(struct pmon_sim *, struct sim_ctr *));

/* ---- events (nhm_events.c) ---- */
/* Decode an event select into c->sig / c->arg (gen: which uncore). */
void sim_nhm_decode(struct sim_ctr *c, uint32_t ctl, int wsm);
/* One queued hierarchy event of box b (its key k, n of them, their summed
 * occupancy occ in UCLK cycles) counted in b's socket's uncore. */
void sim_nhm_replay(struct pmon_sim *sim, const struct sim_box *b, uint64_t k, uint64_t n,
		    uint64_t occ);
/* After the uncore counters of socket s changed: which events the
 * hierarchy should queue (the SNB-EP boxes' mon/rel bits). */
void sim_nhm_subscribe(struct pmon_sim *sim, int s);
/* Does the model drive this event (pmon_sim_models for the box types
 * "nhm_unc", "wsm_unc", their "-fixed" counters, and "core" on these
 * generations)?  gen: the machine's generation. */
int sim_nhm_models(int gen, const char *box_type, uint64_t ctl, uint64_t filt0);

/* ---- offcore responses (nhm_offcore.c) ---- */
void sim_nhm_offcore_counted(struct pmon_sim *sim, int cpu, uint64_t req, uint64_t supplier,
			     uint64_t snoop, uint64_t n);
int sim_nhm_offcore_modeled(int gen, uint64_t ctl, uint64_t rsp);

#pragma GCC visibility pop

#endif
