/*
 * sim_regs.h - the emulated SNB-EP machine's limits and the register fields
 * it decodes: clock domains, the signals a counter selects, counter and
 * box control bits, the offcore-response and prefetcher-control MSRs.
 *
 * The register map here is the emulator's own, written from the uncore
 * guide; it deliberately shares nothing with libpmon's box tables.
 */
#ifndef PMON_SIM_REGS_H
#define PMON_SIM_REGS_H

#include <stdint.h>

/* The emulator's own: hidden from libpmon's exported symbols, so calls
 * between its files are direct and a function can be inlined in its own file. */
#pragma GCC visibility push(hidden)

#define SIM_MAX_SOCKETS 8
#define SIM_MAX_CORES   8
#define SIM_MAX_CHANS   4

/* Clock domains. */
enum sim_clock { SIM_UCLK, SIM_DCLK, SIM_PCLK, SIM_QCLK, SIM_TSC, SIM_NCLOCKS };

/* Signals the activity model produces; a counter selects a set of them. */
#define SIM_SIG_CAS_RD_REG   (1u << 0)
#define SIM_SIG_CAS_RD_UNDER (1u << 1)
#define SIM_SIG_CAS_WR_WMM   (1u << 2)
#define SIM_SIG_CAS_WR_RMM   (1u << 3)
#define SIM_SIG_ACT          (1u << 4)
#define SIM_SIG_PRE_MISS     (1u << 5)
#define SIM_SIG_PRE_CLOSE    (1u << 6)
#define SIM_SIG_RPQ          (1u << 7)
#define SIM_SIG_WPQ          (1u << 8)
#define SIM_SIG_OFFCORE0     (1u << 9)
#define SIM_SIG_OFFCORE1     (1u << 10)
/* Events of the memory hierarchy; the counter's arg holds what the event
 * selects (umask, direction...), matched by the box's emitter. */
#define SIM_SIG_LLC_LOOKUP   (1u << 11)   /* CBo, arg = umask */
#define SIM_SIG_LLC_VICTIM   (1u << 12)   /* CBo, arg = umask */
#define SIM_SIG_TOR_INS      (1u << 13)   /* CBo, arg = umask */
#define SIM_SIG_TOR_OCC      (1u << 14)   /* CBo, arg = umask */
#define SIM_SIG_HA_REQ       (1u << 15)   /* HA REQUESTS, arg = umask */
#define SIM_SIG_HA_IMC_WR    (1u << 16)   /* HA IMC_WRITES */
#define SIM_SIG_HA_TRACKER   (1u << 17)   /* HA TRACKER_INSERTS */
#define SIM_SIG_HA_TXR_BL    (1u << 18)   /* HA TXR_BL, arg = umask */
#define SIM_SIG_QPI_FLITS    (1u << 19)   /* QPI, arg = rx << 16 | group << 8 | umask */
#define SIM_SIG_R3_RXR       (1u << 20)   /* R3QPI RxR_INSERTS, arg = umask (classes) */
#define SIM_SIG_UBOX_LOCK    (1u << 21)   /* UBox LOCK_CYCLES (sequences) */
/* Raised for the Nehalem uncore only (nhm_sim.h; no SNB-EP event asks). */
#define SIM_SIG_LLC_FILL     (1u << 22)   /* CBo: a line filled into the LLC, by state */
#define SIM_SIG_IMC_WR_FULL  (1u << 23)   /* iMC: a full-line write at its channel */
#define SIM_SIG_SNP_RSP      (1u << 24)   /* CBo: a snoop's answer, by state and kind */

/* Offcore-response MSR bits (Intel's SNB-EP matrix bit definitions). */
#define SIM_RSP_VALID            0x3fffff8fffull
#define SIM_RSP_DEMAND_DATA_RD   (1ull << 0)
#define SIM_RSP_DEMAND_RFO       (1ull << 1)
#define SIM_RSP_STREAMING_STORES (1ull << 11)
#define SIM_RSP_REQ_MASK         0xffffull
#define SIM_RSP_ANY_RESPONSE     (1ull << 16)
#define SIM_RSP_SUPPLIER_NONE    (1ull << 17)
#define SIM_RSP_LOCAL_DRAM       (1ull << 22)
#define SIM_RSP_REMOTE_DRAM      (0xffull << 23)   /* bits 30:23 */
#define SIM_RSP_WB               (1ull << 3)
#define SIM_RSP_PF_DATA_RD       (1ull << 4)
#define SIM_RSP_PF_RFO           (1ull << 5)
#define SIM_RSP_LLC_HITM         (1ull << 18)
#define SIM_RSP_LLC_HITE         (1ull << 19)
#define SIM_RSP_LLC_HITS         (1ull << 20)
#define SIM_RSP_LLC_HITF         (1ull << 21)
#define SIM_RSP_SNOOP_NONE       (1ull << 31)
#define SIM_RSP_SNOOP_NOT_NEEDED (1ull << 32)
#define SIM_RSP_SNOOP_MISS       (1ull << 33)
#define SIM_RSP_SNOOP_NO_FWD     (1ull << 34)
#define SIM_RSP_SNOOP_FWD        (1ull << 35)
#define SIM_RSP_SNOOP_HITM       (1ull << 36)
/* Does an access (request, supplier, snoop) count under this RSP value? */
int sim_offcore_match(uint64_t rsp, uint64_t req, uint64_t supplier, uint64_t snoop);

/* Common control-register fields (uncore and core alike). */
#define SIM_CTL_EDGE    (1u << 18)
#define SIM_CTL_EN      (1u << 22)
#define SIM_CTL_INVERT  (1u << 23)
#define SIM_CTL_RST     (1u << 17)
#define SIM_CTL_TID_EN  (1u << 19)
#define SIM_CTL_EXT     (1u << 21)

#define SIM_BOX_RST_CTRL (1u << 0)
#define SIM_BOX_RST_CTRS (1u << 1)
#define SIM_BOX_FRZ      (1u << 8)
#define SIM_BOX_FRZ_EN   (1u << 16)

/* MSR 0x1A4 (MISC_FEATURE_CONTROL): a bit set disables a prefetcher of the
 * core (shared by its threads); 0, all on, is silicon's default. */
#define SIM_MSR_PF_CTL      0x1a4u
#define SIM_PF_NO_STREAMER  (1u << 0)     /* L2 streamer */
#define SIM_PF_NO_ADJACENT  (1u << 1)     /* L2 adjacent line (spatial) */
#define SIM_PF_NO_DCU_NEXT  (1u << 2)     /* DCU (L1) next line */
#define SIM_PF_NO_DCU_IP    (1u << 3)     /* DCU (L1) IP stride */
#define SIM_PF_OFF          0xfu

#pragma GCC visibility pop

#endif
