/*
 * names.h - the names other tools use for pmon's events, as data: the
 * Linux kernel's perf PMU names, format fields and event aliases for the
 * SNB-EP uncore (what /sys/bus/event_source/devices/uncore_* shows), and
 * the units of a count.  names.c reads only these tables.
 */
#ifndef PMON_NAMES_H
#define PMON_NAMES_H

#include <stdint.h>

/* Where a perf format field's value goes. */
enum pmon_perf_dest {
	PMON_PERF_CTL,          /* control register bits shift..shift+width-1 */
	PMON_PERF_EVENT_EXT,    /* QPI event_ext: value bits 7:0 to ev_sel, bit 8 to bit 21 */
	PMON_PERF_FILTER,       /* the box filter register (config1), bits shift.. */
	PMON_PERF_REFUSED,      /* a field pmon takes under its own name only */
};

struct pmon_perf_format {
	const char *name;       /* "umask", "filter_state" */
	enum pmon_perf_dest dest;
	uint8_t shift, width;
};

/* A named event of a perf PMU: what sysfs's events/NAME holds, and the
 * NAME.scale / NAME.unit files where the kernel has them. */
struct pmon_perf_alias {
	const char *name;       /* "cas_count_read" */
	const char *terms;      /* "event=0x04,umask=0x03" */
	const char *scale;      /* "6.103515625e-5", or NULL */
	const char *unit;       /* "MiB", or NULL */
};

/* A perf PMU of the generation: its name prefix (instances get _N when
 * there are several), pmon's box type name, format fields and aliases. */
struct pmon_perf_pmu {
	const char *perf_name;          /* "uncore_imc" */
	const char *box;                /* pmon box type name: "imc" */
	const struct pmon_perf_format *formats;   /* ends with a NULL name */
	const struct pmon_perf_alias *aliases;    /* ends with a NULL name, or NULL */
	const char *refused_why;        /* why the PMON_PERF_REFUSED fields are */
};

/* The unit of a count: rows matched in order, the first that fits wins.
 * event is an fnmatch pattern over pmon's event name; umask NULL: any. */
struct pmon_unit_row {
	const char *box;        /* pmon box type name */
	const char *event;      /* "UNC_M_CAS_COUNT", "UNC_M_*CYCLES*" */
	const char *umask;      /* "DATA", or NULL */
	const char *unit;       /* "64-byte lines" */
	double bytes;           /* bytes one count stands for, 0 if not bytes */
};

#endif
