/*
 * pmon/metric.h - derived metrics of the E5-2600 uncore guide, as data.
 *
 * Each metric is a formula over named events (with their filter values), a
 * unit, the finest scope it is meaningful at and the line of the guide it
 * comes from (Intel Xeon E5-2600 Uncore Performance Monitoring Guide, the
 * derived-metric tables of the CBo (2-15), HA (2-41), iMC (2-65), PCU
 * (2-82), QPI (2-95), R2PCIe (2-109) and R3QPI (2-123), with the common
 * terms of section 1.6.1).  `pmon stat -M`, the validation suite and
 * PAPI-instrumented programs compute the same values from it:
 *
 *   1. pmon_metric_find("MEM_BW_READS") or a group (pmon_metric_group_*);
 *   2. for each event k of the metric and each box instance the scope
 *      covers, pmon_metric_event_name() gives the full event name to count
 *      (pmon_encode / pmon_session_add, or PAPI as "pmon:::" + name);
 *   3. add up each event's counts over the boxes (of the box, the socket or
 *      the machine), and give them with the elapsed time to
 *      pmon_metric_compute().
 *
 * Time is the machine's own: the guide's SAMPLE_INTERVAL / TSC_SPEED, which
 * is pmon_machine_time_ns() (the emulated machine's time on the emulator).
 * Bandwidths are GB/s with GB = 1e9 bytes, as perf, LIKWID and PCM print
 * them (the guide's GB_CONVERSION is 2^30, a GiB).
 */
#ifndef PMON_METRIC_H
#define PMON_METRIC_H

#include <stddef.h>
#include <stdint.h>

#include "pmon/pmon.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The finest scope at which a metric is meaningful. */
enum pmon_metric_scope {
	PMON_METRIC_BOX = 0,      /* each box instance (an iMC channel, a CBo) */
	PMON_METRIC_SOCKET = 1,   /* a socket's boxes added up */
	PMON_METRIC_MACHINE = 2,  /* every socket added up */
};

/* Most events one metric names. */
#define PMON_METRIC_MAX_EVENTS 8

typedef struct pmon_metric_info {
	const char *name;         /* "MEM_BW_READS" (the guide's name; looked up ignoring case) */
	const char *group;        /* "mem_bw" */
	const char *desc;         /* one line */
	const char *formula;      /* over the event labels and SECONDS: "RD * 64 / SECONDS / 1e9" */
	const char *unit;         /* "GB/s", "ns", "%", "bytes", "cycles", "entries" */
	int scope;                /* enum pmon_metric_scope */
	const char *box_type;     /* the box type whose instances a per-box value is of */
	const char *guide;        /* where in the guide: "Table 2-65 MEM_BW_READS, L2221; L470" */
	const char *note;         /* how pmon reads the guide here, "" if plainly */
	int nevents;
	/* Passes: events of different passes need different values of a filter
	 * their boxes share (two opcodes of the CBo filter), so they are never
	 * counted together: each pass is counted in a time slice of its own and
	 * the metric is an estimate. */
	int npasses;
	/* The generation whose uncore the metric is of ("snbep", "nhm",
	 * "wsm") and its title ("SNB-EP"): several generations may declare a
	 * metric of the same name (MEM_BW_READS), each over its own events. */
	const char *generation;
	const char *generation_title;
} pmon_metric_info_t;

/* Which nodes a CBo's node filter (nf=) takes, from the socket counted. */
enum pmon_metric_nodes {
	PMON_METRIC_NODES_NONE = 0,   /* no node filter */
	PMON_METRIC_NODES_LOCAL,      /* the socket's own node */
	PMON_METRIC_NODES_REMOTE,     /* every other node */
	PMON_METRIC_NODES_ALL,        /* every node */
};

typedef struct pmon_metric_event {
	const char *label;        /* its name in the formula: "RD" */
	const char *box_type;     /* "imc": counted on every instance of the type */
	const char *event;        /* "UNC_M_CAS_COUNT:RD" (no PMU, no socket=) */
	int pass;                 /* 0 .. npasses-1 */
	int nodes;                /* enum pmon_metric_nodes */
} pmon_metric_event_t;

int pmon_metric_count(void);
int pmon_metric_get(int metric, pmon_metric_info_t *out);
/* The index of a metric by name (case ignored), or PMON_ENOEVNT: of the
 * first registered generation that has one (SNB-EP's before the others);
 * on a machine, pmon_machine_metric_find gives its generation's. */
int pmon_metric_find(const char *name);
int pmon_metric_event_get(int metric, int k, pmon_metric_event_t *out);

/* The groups a user names (-M mem_bw): each metric belongs to one. */
int pmon_metric_group_count(void);
/* Name and one-line description of group g (PMON_ERANGE past the end). */
int pmon_metric_group_get(int g, const char **name, const char **desc);
/* The index of a group by name (case ignored), or PMON_ENOEVNT (the first
 * registered generation's, as pmon_metric_find). */
int pmon_metric_group_find(const char *name);
/* The generation ("snbep", "nhm"...) group g belongs to, NULL past the end. */
const char *pmon_metric_group_generation(int g);

/* The metric (or group) of this name that the machine's generation
 * declares.  PMON_ENOEVNT when no generation has one of that name;
 * PMON_ENODEV when only other generations do, with why naming them and,
 * for a metric, the event or box of it that this machine's uncore lacks
 * ("GQ_WRITE_LATENCY is a metric of Nehalem-EP only: its event
 * UNC_GQ_TRACKER_OCCUP is not in this machine's Westmere-EP uncore"). */
int pmon_machine_metric_find(const pmon_machine_t *m, const char *name, char *why, size_t whylen);
int pmon_machine_metric_group_find(const pmon_machine_t *m, const char *name, char *why,
				   size_t whylen);

/* The full name of event k of a metric on box instance pmu (a catalogue
 * index whose box type is the event's) of socket: the PMU, the event, its
 * node filter from local_nodes (bit n: node n is this socket's) and
 * all_nodes (the machine's nodes), and socket=.  PMON_EINVAL when pmu is
 * not of the event's box type, PMON_ERANGE when the name does not fit. */
int pmon_metric_event_name(int metric, int k, int pmu, int socket, unsigned local_nodes,
			   unsigned all_nodes, char *buf, size_t len);

/* The metric from its events' counts: counts[k] is event k's count added
 * up over the boxes of the scope (an estimate when scaled from a time
 * slice), seconds the machine's elapsed time.  PMON_OK with *out set; or
 * PMON_ERANGE with *out = 0 when it has no value (a division by zero: no
 * request to average over, no time): print "n/a", never a NaN. */
int pmon_metric_compute(int metric, const double *counts, double seconds, double *out);

/* Evaluate a formula of the metric language (numbers, names, + - * / and
 * parentheses) with names[i] = values[i] (SECONDS is a name like the
 * others).  PMON_OK; PMON_ERANGE: a division by zero or a result that is
 * not finite (*out = 0); PMON_EINVAL: a syntax error or an unknown name,
 * named in err. */
int pmon_metric_eval(const char *formula, const char *const *names, const double *values, int n,
		     double *out, char *err, size_t errlen);

/* ------------------------------------------------------ measuring metrics */

/* A metric set: metrics (on every box of the sockets) and raw events,
 * planned into passes (sessions) so that events needing different values
 * of a shared filter, or more counters than a box has, are never counted
 * together.  One pass counts all the time: exact values.  Several passes
 * take turns (pmon_mset_rotate) and each count is scaled by the share of
 * time its pass counted: an estimate, whose share pmon_mset_value gives
 * (as perf's "(50.00%)").  What `pmon stat` measures with. */
typedef struct pmon_mset pmon_mset_t;

int pmon_mset_create(pmon_machine_t *m, pmon_mset_t **out);
/* Stops the set (registers restored) and frees it. */
void pmon_mset_destroy(pmon_mset_t *s);
/* Add a metric on socket (-1: every socket where its boxes are).  Returns
 * the item's index (>= 0), or an error with why naming the event that
 * cannot be counted.  Writes no register. */
int pmon_mset_add_metric(pmon_mset_t *s, int metric, int socket, char *why, size_t whylen);
/* Add a raw event by name; without socket= (and without cpu=) it is
 * counted on every socket.  Returns the item's index or an error. */
int pmon_mset_add_event(pmon_mset_t *s, const char *name, char *why, size_t whylen);
int pmon_mset_npasses(const pmon_mset_t *s);
int pmon_mset_item_count(const pmon_mset_t *s);
typedef struct pmon_mset_item {
	int metric;               /* metric index, -1 for a raw event */
	const char *name;         /* the metric's name, or the event as given */
	const char *unit;         /* the metric's unit, "count" for an event */
	int scope;                /* enum pmon_metric_scope (raw events: per box) */
	const char *box_type;     /* the box type of its per-box values */
} pmon_mset_item_t;
int pmon_mset_item_get(const pmon_mset_t *s, int item, pmon_mset_item_t *out);
/* Program and start the first pass (zeroing its counters). */
int pmon_mset_start(pmon_mset_t *s, char *why, size_t whylen);
/* With several passes: stop the running one, start the next. */
int pmon_mset_rotate(pmon_mset_t *s, char *why, size_t whylen);
/* Read now: the totals since start, and the interval since the previous
 * sample (or the start). */
int pmon_mset_sample(pmon_mset_t *s, char *why, size_t whylen);
/* A last sample, then stop: every register the set programmed restored. */
int pmon_mset_stop(pmon_mset_t *s, char *why, size_t whylen);

enum { PMON_MSET_TOTAL = 0, PMON_MSET_INTERVAL = 1 };
/* The machine's seconds of the totals or of the last interval. */
double pmon_mset_seconds(const pmon_mset_t *s, int what);
/* The value of an item over the totals or the last interval, on socket
 * (-1: every socket) and box pmu (a catalogue index; -1: the socket's
 * boxes added up).  *counted (may be NULL): the share of the time its
 * events were counted, 1 when exact.  PMON_OK; PMON_ERANGE: no value (a
 * division by zero, a pass that never counted); PMON_ENODEV: no such box
 * counted here; PMON_EINVAL: a per-box value of a per-socket metric. */
int pmon_mset_value(const pmon_mset_t *s, int what, int item, int socket, int pmu, double *value,
		    double *counted);

#ifdef __cplusplus
}
#endif
#endif
