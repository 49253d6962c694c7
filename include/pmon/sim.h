/*
 * pmon/sim.h - the emulated Sandy Bridge-EP machine.
 *
 * A register-level model of the uncore PMON boxes (MSR and PCI configuration
 * space) and of the core PMU MSRs of a Xeon E5-2600 system.  libpmon programs
 * it through the same access interface it uses for silicon; tests and the
 * validation suite drive it with emulated time and memory traffic and inspect
 * the log of every register access.
 *
 * Shape string (environment variable PMON_SIM, all keys optional):
 *   "sockets=2,cores=8,threads=2,channels=4,llc=20M,mem=64G,dclk=800M,uclk=2.7G,tsc=2.7G"
 * Sizes take K/M/G suffixes (powers of two); frequencies take K/M/G (powers of ten).
 */
#ifndef PMON_SIM_H
#define PMON_SIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct pmon_sim_shape {
	int sockets;            /* 1..8, default 2 */
	int cores;              /* cores per socket 1..8, default 8 (one CBo each) */
	int threads;            /* threads per core 1..2, default 2 */
	int channels;           /* DDR3 channels per socket 1..4, default 4 */
	uint64_t llc_bytes;     /* per socket, default 20 MiB */
	uint64_t mem_bytes;     /* DRAM per socket, default 32 GiB */
	uint64_t dclk_hz;       /* DRAM clock, default 800 MHz */
	uint64_t uclk_hz;       /* uncore clock, default 2.7 GHz */
	uint64_t tsc_hz;        /* core/TSC clock, default 2.7 GHz */
	uint64_t qclk_hz;       /* QPI flit clock, default 1.0 GHz (8 GT/s / 8) */
	uint64_t pclk_hz;       /* PCU clock, default 800 MHz */
};

/* Fill *shape with the defaults, then apply spec (NULL or "" = defaults).
 * Returns 0, or -1 with a message naming the bad key or value in err. */
int pmon_sim_shape_parse(const char *spec, struct pmon_sim_shape *shape,
			 char *err, size_t errlen);

typedef struct pmon_sim pmon_sim_t;

/* The emulated machine the current process's libpmon uses (created on first
 * use by the "sim" backend from $PMON_SIM), or NULL if none exists yet. */
pmon_sim_t *pmon_sim_current(void);

/* Create/destroy a machine explicitly (tests).  pmon_sim_create returns NULL
 * only on allocation failure; the shape must come from pmon_sim_shape_parse. */
pmon_sim_t *pmon_sim_create(const struct pmon_sim_shape *shape);
void pmon_sim_destroy(pmon_sim_t *sim);
const struct pmon_sim_shape *pmon_sim_shape(const pmon_sim_t *sim);

/* Emulated time.  Advancing time ticks every clock-driven event: UBox UCLK
 * fixed counter, iMC DCLK fixed counter, box CLOCKTICKS, PCU clockticks, core
 * cycles.  Computed in O(1) however large ns is. */
void pmon_sim_advance_ns(pmon_sim_t *sim, uint64_t ns);
uint64_t pmon_sim_now_ns(const pmon_sim_t *sim);

/* Memory traffic: one cache-line-sized access by a CPU (logical CPU number
 * 0..sockets*cores*threads-1) to a physical address.  Addresses are split
 * over sockets in contiguous mem_bytes ranges (socket s owns
 * [s*mem_bytes, (s+1)*mem_bytes)), and over the socket's channels by cache line.
 * Until the cache model exists every access reaches DRAM: a LOAD is a DRAM
 * read, a STORE and an NT_STORE are DRAM writes; a bank's open row decides
 * ACT/PRE (open-page policy).  count repeats the access over count
 * consecutive lines starting at addr (stride 64 bytes). */
enum pmon_sim_kind {
	PMON_SIM_LOAD = 0,
	PMON_SIM_STORE = 1,
	PMON_SIM_NT_STORE = 2,
};
int pmon_sim_traffic(pmon_sim_t *sim, int cpu, uint64_t addr,
		     enum pmon_sim_kind kind, uint64_t count);

/* Ground truth kept by the model (independent of any PMON programming), for
 * tests to compare counter readings against. */
struct pmon_sim_truth {
	uint64_t cas_rd, cas_wr, act, pre_miss, pre_close;
};
void pmon_sim_channel_truth(const pmon_sim_t *sim, int socket, int channel,
			    struct pmon_sim_truth *out);

/* Does the emulated machine drive the event that this control value (enable
 * bit ignored) selects in a box of this type ("ubox", "cbo", "ha", "imc",
 * "pcu", "qpi", "r2pcie", "r3qpi", "core"; fixed counters are "ubox-fixed"
 * and "imc-fixed")?  filt0 is the event's first filter word (offcore: the
 * response MSR value).  1 = modeled, 0 = not modeled: programming it would
 * count nothing meaningful, so libpmon refuses it on the emulated machine.
 * A pure function: no machine needs to exist. */
int pmon_sim_models(const char *box_type, uint64_t ctl, uint64_t filt0);

/* The access log: every MSR and PCI config access the backend served. */
enum pmon_sim_op {
	PMON_SIM_MSR_READ, PMON_SIM_MSR_WRITE,
	PMON_SIM_PCI_READ, PMON_SIM_PCI_WRITE,
};
struct pmon_sim_log_entry {
	enum pmon_sim_op op;
	int cpu;                /* MSR accesses */
	uint32_t msr;
	uint16_t domain;        /* PCI accesses */
	uint8_t bus, dev, func;
	uint16_t off;
	uint64_t value;         /* value written, or value returned by a read */
	int status;             /* 0, or the error returned */
};
size_t pmon_sim_log_count(const pmon_sim_t *sim);
const struct pmon_sim_log_entry *pmon_sim_log_get(const pmon_sim_t *sim, size_t i);
size_t pmon_sim_log_writes(const pmon_sim_t *sim);   /* successful writes so far */
void pmon_sim_log_clear(pmon_sim_t *sim);

/* PCI bus numbers of a socket's uncore devices in the emulated machine. */
int pmon_sim_socket_bus(const pmon_sim_t *sim, int socket);

#ifdef __cplusplus
}
#endif
#endif
