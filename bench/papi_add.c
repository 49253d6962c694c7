/*
 * papi_add.c - what building an event set costs a PAPI user of the pmon
 * component on the emulated machine: the time to PAPI_add_named_event 4, 16
 * and 64 pmon events one after the other into a new set (all of them, and
 * the last one alone), medians of several sets.  The events are modeled
 * uncore events of every box of both sockets, in catalogue order, each kept
 * only if a probe set accepts it beside the earlier ones.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "papi.h"
#include "pmon/pmon.h"
#include "bench.h"

#define MAXN 64
#define REPEAT 7

static char names[MAXN][PMON_MAX_NAME + 32];
static int nnames;

/* Fill names[] with up to MAXN events that fit together in one set. */
static void pick_events(void)
{
	int probe = PAPI_NULL;
	char ex[PMON_MAX_NAME];

	PAPI_create_eventset(&probe);
	for (int s = 0; s < 2 && nnames < MAXN; s++)
		for (int p = 0; p < pmon_pmu_count() && nnames < MAXN; p++) {
			pmon_pmu_info_t pi;
			pmon_pmu_get(p, &pi);
			if (pi.per_cpu)
				continue;
			for (int e = 0; e < pmon_event_count(p) && nnames < MAXN; e++) {
				pmon_event_info_t ei;
				pmon_event_get(p, e, &ei);
				if (!ei.modeled || pmon_event_example(p, e, -1, ex, sizeof ex) != PMON_OK)
					continue;
				snprintf(names[nnames], sizeof names[0], "pmon:::%s:socket=%d", ex, s);
				if (PAPI_add_named_event(probe, names[nnames]) == PAPI_OK)
					nnames++;
			}
		}
	PAPI_cleanup_eventset(probe);
	PAPI_destroy_eventset(&probe);
}

/* Median µs to add the first n events to a new set, and of the n-th add. */
static void add_us(int n, double *all, double *last)
{
	double t[REPEAT], l[REPEAT];

	for (int r = 0; r < REPEAT; r++) {
		int es = PAPI_NULL;
		uint64_t t0, t1 = 0;

		PAPI_create_eventset(&es);
		t0 = bench_ns();
		for (int i = 0; i < n; i++) {
			if (i == n - 1)
				t1 = bench_ns();
			if (PAPI_add_named_event(es, names[i]) != PAPI_OK)
				fprintf(stderr, "papi_add: %s refused\n", names[i]);
		}
		t[r] = (double)(bench_ns() - t0) / 1000;
		l[r] = (double)(bench_ns() - t1) / 1000;
		PAPI_cleanup_eventset(es);
		PAPI_destroy_eventset(&es);
	}
	*all = bench_median(t, REPEAT);
	*last = bench_median(l, REPEAT);
}

int main(void)
{
	static const int sizes[] = { 4, 16, 64 };

	setenv("PMON_BACKEND", "sim", 0);
	setenv("PMON_QUIET", "1", 0);
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
		fprintf(stderr, "papi_add: PAPI_library_init failed\n");
		return 1;
	}
	pick_events();
	printf("PAPI_add_named_event, median us (PMON_BACKEND=%s; %d uncore events available)\n",
	       getenv("PMON_BACKEND"), nnames);
	printf("%8s %14s %14s\n", "events", "whole set", "last add");
	for (int i = 0; i < 3; i++) {
		double all, last;
		if (sizes[i] > nnames) {
			printf("%8d %14s %14s\n", sizes[i], "-", "-");
			continue;
		}
		add_us(sizes[i], &all, &last);
		printf("%8d %14.1f %14.1f\n", sizes[i], all, last);
	}
	printf("(target: a 64-event set in under 1000 us)\n");
	PAPI_shutdown();
	return 0;
}
