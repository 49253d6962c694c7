/*
 * count.h - counting by event NAME through libpmon's public session API
 * (include/pmon/pmon.h), the path PAPI takes: name -> encode -> session ->
 * registers.  Counts reach the suite only through the machine's registers.
 */
#ifndef PMON_VALIDATE_COUNT_H
#define PMON_VALIDATE_COUNT_H

#include <stdint.h>

#include <pmon/pmon.h>

#define VEV_MAX 48

struct vevents {
	pmon_machine_t *m;
	pmon_session_t *s;
	int n;
	char name[VEV_MAX][PMON_MAX_NAME];
	int broken[VEV_MAX];        /* deliberately mis-programmed (breakage test) */
	int sidx[VEV_MAX];          /* its index in the session, -1: refused (not counted) */
	char *refused[VEV_MAX];     /* why the backend refused it (malloc'd), NULL if counted */
	uint64_t val[VEV_MAX];       /* raw counts of the window */
	/* The idle baseline (vbase.h): which events take one, their idle rate
	 * and its spread (counts per ns), and, after the window, the background
	 * subtracted from val (bgsub: 0 with --break=baseline) and its spread,
	 * in counts. */
	int base[VEV_MAX];
	double rate[VEV_MAX], rate_sp[VEV_MAX];
	double bg[VEV_MAX], bgsub[VEV_MAX], bgsp[VEV_MAX];
	int based;                   /* idle windows taken for this window */
	int idle_done;               /* vbase_idle ran for the next window */
	uint64_t t_start;            /* machine time the kernel window started (ns) */
	double outer0, outer1;       /* host time just before the session starts and
					just after it stops (ns): the counters run
					only inside */
	char err[512];
};

void vev_init(struct vevents *e, pmon_machine_t *m);
/* Add an event by name (printf format); returns its index, or -1 with
 * e->err set (the name and libpmon's reason). */
int vev_add(struct vevents *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add an encoded event (enc->name is its name) to the session; index or -1
 * with e->err set. */
int vev_add_enc(struct vevents *e, const pmon_encoding_t *enc);
/* Record an event the backend refuses to count: it takes an index (its
 * value stays 0) but no counter; the checks that use it FAIL naming why.
 * Index or -1 with e->err set. */
int vev_refuse(struct vevents *e, const char *name, const char *why);
/* Mark event i as deliberately broken. */
void vev_mark_broken(struct vevents *e, int i);
int vev_start(struct vevents *e);
int vev_stop(struct vevents *e);            /* fills val[] */
void vev_free(struct vevents *e);
/* Sum of val[] less the background subtracted (bgsub[]) over a list of
 * indexes; sets *broken if any is broken. */
double vev_sum(const struct vevents *e, const int *idx, int n, int *broken);
/* The same without the background: the raw counts. */
double vev_sum_raw(const struct vevents *e, const int *idx, int n);
/* The background measured for the same sum (subtracted or not). */
double vev_sum_bg(const struct vevents *e, const int *idx, int n);
/* The spread of the background of the same sum (counts; 0 when nothing is
 * subtracted). */
double vev_sum_bgsp(const struct vevents *e, const int *idx, int n);

#endif
