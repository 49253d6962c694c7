/*
 * pmon/pmon.h - public API of libpmon.
 *
 * libpmon turns named uncore (and offcore-response) events of Intel Xeon
 * E5-2600 "Sandy Bridge-EP" processors into register programming, and counts
 * them by programming the hardware directly (or the emulated machine).
 *
 *   catalogue   which PMUs, events, umasks and modifiers exist (no access needed)
 *   encode      parse an event name into control and filter register values
 *   machine     an opened backend: topology, boxes present, register access
 *   session     a set of events counted together on one machine
 *
 * All functions returning int return PMON_OK (0) or a negative PMON_E* code.
 */
#ifndef PMON_PMON_H
#define PMON_PMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header (the library's is the same: libpmon.so.0.1.0).
 * PMON_VERSION is MAJOR * 10000 + MINOR * 100 + PATCH, for #if tests. */
#define PMON_VERSION_MAJOR 0
#define PMON_VERSION_MINOR 1
#define PMON_VERSION_PATCH 0
#define PMON_VERSION_STRING "0.1.0"
#define PMON_VERSION (PMON_VERSION_MAJOR * 10000 + PMON_VERSION_MINOR * 100 + PMON_VERSION_PATCH)

enum pmon_error {
	PMON_OK = 0,
	PMON_ENOEVNT = -1,     /* unknown PMU, box instance or event name */
	PMON_EUMASK = -2,      /* unknown umask, or umask not valid for the event */
	PMON_EQUAL = -3,       /* unknown or malformed modifier/qualifier */
	PMON_ERANGE = -4,      /* value out of range (socket, cpu, threshold, filter...) */
	PMON_ECONFLICT = -5,   /* events cannot be counted together (counters, filters) */
	PMON_EPERM = -6,       /* no permission for the device files */
	PMON_ENODEV = -7,      /* device or register missing */
	PMON_ENOTMODELED = -8, /* the emulated machine does not model this event */
	PMON_ENOMEM = -9,
	PMON_EIO = -10,        /* register access failed */
	PMON_EINVAL = -11,     /* bad argument or state */
	PMON_ENOSUPP = -12,    /* not an SNB-EP, or feature absent */
	PMON_EBUSY = -13,      /* registers in use by another agent */
	PMON_ESTALE = -14,     /* a counter may have wrapped unseen: no total */
};
const char *pmon_strerror(int err);

/* ------------------------------------------------------------------ catalogue */

#define PMON_MAX_NAME 256

typedef struct pmon_pmu_info {
	const char *name;        /* "snbep_unc_imc0", "snbep_unc_ubo", "snb_ep" */
	const char *box_type;    /* "imc", "ubox", "cbo", ..., "core" */
	const char *desc;        /* one line, pmon's own words */
	int instance;            /* box instance within the socket */
	int ncounters;           /* general-purpose counters */
	int width;               /* general counter width in bits */
	int has_fixed;           /* has a fixed counter */
	int per_cpu;             /* 1 for core-PMU events (cpu= qualifier), 0 for uncore (socket=) */
	int offcore_regs;        /* core PMU: offcore-response (RSP) registers, 0 for uncore */
	int offcore_per_core;    /* 1: a core's hyperthreads share them (Nehalem, Westmere) */
} pmon_pmu_info_t;

typedef struct pmon_event_info {
	const char *name;        /* "UNC_M_CAS_COUNT" */
	const char *desc;
	unsigned code;           /* event select, plus 0x100 when the extra select bit is needed */
	uint32_t cntmask;        /* allowed general counters (bit i = counter i); 0 for fixed */
	int fixed;               /* counts on the box's fixed counter */
	int numasks;
	int modeled;             /* 1 if the emulated machine drives this event */
} pmon_event_info_t;

typedef struct pmon_umask_info {
	const char *name;        /* "RD" */
	const char *desc;
	uint64_t value;          /* umask field value (offcore: response MSR bits) */
	int is_default;          /* used when no umask of its group is given */
	int modeled;             /* 1 if the emulated machine drives the event with this umask */
} pmon_umask_info_t;

typedef struct pmon_mod_info {
	const char *name;        /* "e", "t", "nf", "socket", "cpu" ... */
	const char *desc;
	uint64_t min, max;       /* accepted value range */
} pmon_mod_info_t;

int pmon_pmu_count(void);
int pmon_pmu_get(int pmu, pmon_pmu_info_t *out);
int pmon_pmu_find(const char *name);                 /* index or PMON_ENOEVNT */
int pmon_event_count(int pmu);
int pmon_event_get(int pmu, int ev, pmon_event_info_t *out);
int pmon_umask_get(int pmu, int ev, int um, pmon_umask_info_t *out);
/* Modifiers valid for this event, qualifiers (socket=/cpu=) included. */
int pmon_mod_count(int pmu, int ev);
int pmon_mod_get(int pmu, int ev, int i, pmon_mod_info_t *out);

/* A complete, valid name for event ev with umask um (um < 0: the event
 * alone): the bare name plus whatever it needs to encode (a umask of each
 * required group, filter umasks or modifiers for the filter fields it needs,
 * cpu=0 on per-CPU PMUs).  Returns PMON_OK if the name encodes. */
int pmon_event_example(int pmu, int ev, int um, char *buf, size_t len);

/* ------------------------------------------------------------------- encode */

#define PMON_FILTER_WORDS 4

typedef struct pmon_encoding {
	char name[PMON_MAX_NAME];  /* canonical full name, e.g.
				      "snbep_unc_imc0::UNC_M_CAS_COUNT:RD:socket=0" */
	int pmu;                   /* PMU index (catalogue) */
	int event;                 /* event index within the PMU */
	int socket;                /* target socket (uncore), or the socket of cpu */
	int cpu;                   /* target CPU (core PMU events), -1 for uncore */
	int fixed;                 /* 1: uses the fixed counter */
	uint64_t ctl;              /* control register value WITHOUT the enable bit */
	uint32_t cntmask;          /* allowed general counters */
	/* Filter/match register values, box-specific meaning:
	 *   CBo:  filt[0] = Cn_MSR_PMON_BOX_FILTER
	 *   PCU:  filt[0] = PCU_MSR_PMON_BOX_FILTER
	 *   HA:   filt[0] = ADDRMATCH1<<32 | ADDRMATCH0, filt[1] = OPCODEMATCH
	 *   QPI:  filt[0] = MATCH1<<32 | MATCH0, filt[1] = MASK1<<32 | MASK0
	 *   core: filt[0] = MSR_OFFCORE_RSP_x value */
	uint64_t filt[PMON_FILTER_WORDS];
	uint32_t fields_used;      /* bit i: filter field i of the box type is used */
	uint32_t filt_used;        /* bit w: filt[w] is programmed for this event */
} pmon_encoding_t;

/* Parse and encode an event name (with or without a "pmon:::" prefix).
 * nsockets/ncpus bound socket=/cpu= (0 = do not check).  On error err holds a
 * message that names the offending part. */
int pmon_encode(const char *name, int nsockets, int ncpus, pmon_encoding_t *out,
		char *err, size_t errlen);
/* Every box a name counts on (more than one for a name of every instance,
 * see below): up to max encodings into out; returns how many (>= 1) or an
 * error code. */
int pmon_encode_all(const char *name, int nsockets, int ncpus, pmon_encoding_t *out, int max,
		    char *err, size_t errlen);

/* ---------------------------------------------------------- names of others */

/* pmon_encode and everything that takes an event name also accept:
 *   perf (the Linux kernel's uncore PMUs): uncore_imc_0/cas_count_read/,
 *     uncore_cbox_0/event=0x34,umask=0x03,filter_state=0x1f/ (format fields
 *     and event aliases as sysfs shows them for SNB-EP);
 *   Intel's event names: UNC_M_CAS_COUNT.RD (EVENT.UMASK), followed by
 *     pmon's :ATTR=VALUE attributes where the event needs them;
 * each optionally followed by :socket=N or :cpu=N.  A perf PMU named
 * without its instance (uncore_imc/cas_count_read/) and Intel's names name
 * every instance of the box: their counts are summed, as perf merges them
 * (pmon_encode refuses them; pmon_encode_all gives one encoding each). */
enum pmon_name_form { PMON_FORM_PMON = 0, PMON_FORM_PERF = 1, PMON_FORM_INTEL = 2 };
#define PMON_MAX_INSTANCES 8
typedef struct pmon_name_map {
	int form;                  /* enum pmon_name_form */
	int ninstances;            /* pmon names in pmon[]: 1, or every instance (summed) */
	char pmon[PMON_MAX_INSTANCES][PMON_MAX_NAME];   /* pmon's name of each */
	double perf_scale;         /* perf's NAME.scale (count x scale = perf_unit), 0: none */
	char perf_unit[16];        /* perf's NAME.unit ("MiB"), "" */
	char note[256];            /* what pmon chose that the name left open, or "" */
} pmon_name_map_t;
/* pmon's name(s) for a name in any accepted form (a pmon name maps to
 * itself).  Every perf name is checked to encode to exactly the control
 * and filter bits the kernel would program. */
int pmon_name_map(const char *name, pmon_name_map_t *out, char *err, size_t errlen);

/* What one count is. */
typedef struct pmon_unit {
	const char *unit;          /* "64-byte lines", "DRAM clock cycles"; "" when unstated */
	double bytes;              /* bytes one count stands for, 0 if not bytes */
} pmon_unit_t;
/* The unit of an event with umask um (um < 0: the event whatever umask). */
int pmon_event_unit(int pmu, int ev, int um, pmon_unit_t *out);
/* The unit of an encoded event: none ("") when edge detect, invert or a
 * threshold turn its counts into something else. */
int pmon_encoding_unit(const pmon_encoding_t *e, pmon_unit_t *out);

/* -------------------------------------------------------------------- machine */

typedef struct pmon_machine pmon_machine_t;

/* Open a backend: "sim", "msr" (hardware: MSR + PCI) or "auto"; NULL means
 * $PMON_BACKEND, defaulting to "auto".  "auto" picks the hardware when it is an
 * SNB-EP with accessible MSRs and uncore PCI functions, and otherwise fails.
 * On failure *out is NULL and why explains (it mentions PMON_BACKEND=sim). */
int pmon_machine_open(pmon_machine_t **out, const char *backend, char *why, size_t whylen);
void pmon_machine_close(pmon_machine_t *m);

const char *pmon_machine_backend(const pmon_machine_t *m);   /* "sim" or "msr" */
const char *pmon_machine_cpu_name(const pmon_machine_t *m);
int pmon_machine_nsockets(const pmon_machine_t *m);
int pmon_machine_ncpus(const pmon_machine_t *m);
int pmon_machine_cpu_socket(const pmon_machine_t *m, int cpu);
int pmon_machine_socket_cpu(const pmon_machine_t *m, int socket);  /* first CPU */
/* Is this PMU (box instance) present on that socket? */
int pmon_machine_pmu_present(const pmon_machine_t *m, int pmu, int socket);
/* Counters the machine offers at once: every present uncore box's general
 * and fixed counters on every socket, and the core PMU's offcore-response
 * events (one per RSP register of each CPU, or of each core where its
 * hyperthreads share them). */
int pmon_machine_counters(const pmon_machine_t *m);
/* Warnings gathered while opening (e.g. bus-map disagreement); "" if none. */
const char *pmon_machine_warnings(const pmon_machine_t *m);
/* Describe boxes found, one per line ("pmon info"). */
int pmon_machine_describe(const pmon_machine_t *m, char *buf, size_t len);
/* Where a present box's registers are (what pmon_machine_describe prints). */
typedef struct pmon_box_where {
	int pci;                   /* 0: MSRs, 1: a PCI function */
	uint32_t msr_ctl, msr_ctr; /* MSRs: first control and counter register */
	int ncounters;
	int has_box_ctl;           /* MSRs: the box has a box control register */
	unsigned domain, bus, dev, func;   /* PCI */
	int has_extra;             /* PCI: a second (match/mask) function */
} pmon_box_where_t;
/* PMON_ENODEV when the box is absent or a core PMU. */
int pmon_machine_box_where(const pmon_machine_t *m, int pmu, int socket, pmon_box_where_t *out);
/* The uncore PCI bus of a socket, -1 if unknown. */
int pmon_machine_socket_bus(const pmon_machine_t *m, int socket);
/* A socket's node ID, -1 if unknown: what the CBo's node filter (nf=, bit n
 * for node n) and QPI packets' node fields name.  Read from the socket's
 * UBox (CPUNODEID, PCI config 0x40, bits 2:0; GIDNIDMAP 0x54 maps node IDs
 * to sockets), not assumed equal to the socket number. */
int pmon_machine_socket_node(const pmon_machine_t *m, int socket);
/* The machine's own time in ns, the clock its counts are read against: the
 * emulated machine's time on the emulator, CLOCK_MONOTONIC (which the
 * invariant TSC drives) on hardware.  The guide's SAMPLE_INTERVAL /
 * TSC_SPEED is the difference of two readings (pmon/metric.h). */
uint64_t pmon_machine_time_ns(const pmon_machine_t *m);
/* Put the registers of a socket (socket -1: every socket) back after a
 * process that counted there died: from the socket's journal in the run
 * directory ($PMON_RUN_DIR, default /run/pmon); without a journal nothing
 * is written (see pmon_machine_reset_with: PMON_RESET_ALL).
 * PMON_EBUSY, writing nothing, while a live process holds a box of the
 * socket.  report gets one line per socket saying what was done. */
int pmon_machine_reset(pmon_machine_t *m, int socket, char *report, size_t len);
/* The same with flags (src/reset.c has the whole rule): every journal line
 * is checked (its sum, box, CPU, register in the PMON allowlist, value in
 * the register's writable bits) before anything is written, a bad one named
 * and dropped; a register that holds neither what pmon wrote nor its
 * original is another agent's and left (PMON_RESET_FORCE writes it).
 * Without a journal nothing is written unless PMON_RESET_ALL: then every
 * uncore box the journal does not name gets its PMON controls, filters and
 * box control set to 0, but a box with an enabled control (another agent
 * counting) is left and named unless PMON_RESET_FORCE.  PMON_EINVAL when a
 * journal line was dropped as invalid. */
#define PMON_RESET_ALL 1u
#define PMON_RESET_FORCE 2u
int pmon_machine_reset_with(pmon_machine_t *m, int socket, unsigned flags, char *report,
			    size_t len);
/* An uncore PMON control found enabled (pmon_machine_enabled_ctls). */
typedef struct pmon_enabled_ctl {
	int pmu;
	char reg[128];             /* box, register and its MSR or PCI address + offset */
	uint64_t value;            /* the control's value */
} pmon_enabled_ctl_t;
/* The uncore PMON controls (general and fixed) of a socket whose enable bit
 * is set now: another agent (perf, PCM, another tool or pmon process, or a
 * running session of this process) is counting there.  Reads only, writes
 * nothing.  The first max go to out; returns how many there are (>= 0), or
 * an error code with why saying which read failed. */
int pmon_machine_enabled_ctls(pmon_machine_t *m, int socket, pmon_enabled_ctl_t *out, int max,
			      char *why, size_t whylen);
/* n enabled controls as one line of text into buf (len bytes, from buf[0]):
 * the first PMON_ENABLED_NAMED (ctl holds at least those) as "register =
 * 0xvalue" with "; " between, then " and N more" for the rest (text that
 * does not fit ends in "...").  Refusals of busy counters and `pmon info`
 * name them so. */
#define PMON_ENABLED_NAMED 4
void pmon_enabled_ctls_text(char *buf, size_t len, const pmon_enabled_ctl_t *ctl, int n);
/* Encode against this machine: checks socket/cpu ranges, box presence and,
 * on the emulated machine, that the event is modeled. */
int pmon_machine_encode(const pmon_machine_t *m, const char *name, pmon_encoding_t *out,
			char *err, size_t errlen);
/* Does the backend count this encoding as programmed?  PMON_OK when it
 * does (the hardware counts whatever it is programmed with: always PMON_OK
 * there), PMON_ENOTMODELED with err naming the event when the emulated
 * machine does not model it (programming it would count nothing).  The
 * question pmon_machine_encode asks; for an encoding changed afterwards. */
int pmon_machine_event_modeled(const pmon_machine_t *m, const pmon_encoding_t *e, char *err,
			       size_t errlen);
/* pmon_encode_all against this machine: the instances present on the
 * socket (a CBo past the cores present is left out); its counts are to be
 * summed.  Returns how many (>= 1) or an error code. */
int pmon_machine_encode_all(const pmon_machine_t *m, const char *name, pmon_encoding_t *out,
			    int max, char *err, size_t errlen);

/* -------------------------------------------------------------------- session */

typedef struct pmon_session pmon_session_t;

int pmon_session_create(pmon_machine_t *m, pmon_session_t **out);
void pmon_session_destroy(pmon_session_t *s);        /* stops and restores */
/* Add an encoded event; it must be schedulable together with those already
 * added (counter constraints, shared filters).  Only the new event's filters
 * are checked and only its box's events are placed again, so a set grows at
 * a cost linear in its size.  An offcore-response event takes one of its
 * CPU's two RSP registers, whichever of OFFCORE_RESPONSE_0/1 it names: the
 * one holding its mask (shared), else a free one; a third distinct mask is
 * PMON_ECONFLICT.  At start it may move again, to the register other running
 * sessions leave free or hold with its mask (PMON_EBUSY when none).  Writes
 * no register. */
int pmon_session_add(pmon_session_t *s, const pmon_encoding_t *e);
int pmon_session_count(const pmon_session_t *s);
int pmon_session_clear(pmon_session_t *s);           /* remove all events (stopped) */
int pmon_session_start(pmon_session_t *s);           /* program, zero, start */
/* 64-bit totals since start/reset (values undefined when it fails).
 * Takes no lock when none is needed (doc/internals.md, "How counters are read").  A
 * session's calls come from one thread at a time, as a PAPI event set's do. */
int pmon_session_read(pmon_session_t *s, uint64_t *values);
int pmon_session_reset(pmon_session_t *s);           /* totals to zero */
int pmon_session_stop(pmon_session_t *s, uint64_t *values);  /* final totals, registers restored */
/* (A stop that returns 0 with pmon_session_errmsg starting "warning: "
 * restored every register and returned the counts, but could not remove
 * its journal lines: they stay, harmless, until `pmon reset`.) */
/* The machine's time (pmon_machine_time_ns) of the counts behind the totals
 * the owner last got: when counting began (start), of the registers' read
 * (read, stop).  Rates over it cover exactly the counted window. */
uint64_t pmon_session_read_ns(const pmon_session_t *s);
/* Counter assigned to event i (after add), -1 = fixed counter. */
int pmon_session_counter(const pmon_session_t *s, int i);
/* The reason of the session's last failed call.  Only calls on the session
 * write it: the machine's fold (another thread) keeps what it finds for the
 * session's next read. */
const char *pmon_session_errmsg(const pmon_session_t *s);

#ifdef __cplusplus
}
#endif
#endif
