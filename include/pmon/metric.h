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
/* The index of a metric by name (case ignored), or PMON_ENOEVNT. */
int pmon_metric_find(const char *name);
int pmon_metric_event_get(int metric, int k, pmon_metric_event_t *out);

/* The groups a user names (-M mem_bw): each metric belongs to one. */
int pmon_metric_group_count(void);
/* Name and one-line description of group g (PMON_ERANGE past the end). */
int pmon_metric_group_get(int g, const char **name, const char **desc);
/* The index of a group by name (case ignored), or PMON_ENOEVNT. */
int pmon_metric_group_find(const char *name);

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

#ifdef __cplusplus
}
#endif
#endif
