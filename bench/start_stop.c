/*
 * start_stop.c - what starting and stopping a session costs per box
 * (issue 18: PAPI_start + PAPI_stop cost 0.2-0.6 ms a box on the emulated
 * machine when a lock file was made and removed per box under $TMPDIR).
 *
 * Median microseconds per box of pmon_session_start and of
 * pmon_session_stop, for a session of one event in each of NBOX boxes:
 *  - on the emulated machine (PMON_BACKEND=sim; its locks live in the
 *    process);
 *  - on fake device files (the hardware backend: lock files, the journal
 *    with its fsync, MSR and PCI config files), with the run directory on a
 *    tmpfs (/dev/shm, as /run is on a real machine), and on /tmp for
 *    comparison.
 * PAPI_start and PAPI_stop of the pmon component are these two calls.
 * Beside the wall time, the CPU time of the same calls (this thread's:
 * what the machine's other processes take is left out, the kernel's work
 * for the calls counted), and the load average the run saw.
 * `start_stop tmpfs` runs the tmpfs row alone (for a profiler).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "bench.h"
#include "fake_hw.h"
#include "pmon/pmon.h"

#define ROUNDS 200
#define BATCHES 7

/* One event in each of these boxes (present on both machines). */
static const char *const events[] = {
	"snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=0",
	"snbep_unc_cbo1::UNC_C_CLOCKTICKS:socket=0",
	"snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=0",
	"snbep_unc_cbo0::UNC_C_CLOCKTICKS:socket=1",
	"snbep_unc_pcu::UNC_P_CLOCKTICKS:socket=1",
};
#define NBOX ((int)(sizeof(events) / sizeof(events[0])))

/* Median us per box of a start (*start) and of a stop (*stop) on backend,
 * and of both in CPU time (*cpu); -1 when it cannot run (why on stderr). */
static void measure(const char *backend, int rounds, double *start, double *stop, double *cpu)
{
	pmon_machine_t *m;
	pmon_session_t *s;
	pmon_encoding_t e;
	char err[512];
	double ts[BATCHES], tp[BATCHES], tc[BATCHES];
	*start = *stop = *cpu = -1;
	if (pmon_machine_open(&m, backend, err, sizeof(err))) {
		fprintf(stderr, "start_stop: %s: %s\n", backend, err);
		return;
	}
	pmon_session_create(m, &s);
	for (int i = 0; i < NBOX; i++)
		if (pmon_machine_encode(m, events[i], &e, err, sizeof(err)) || pmon_session_add(s, &e)) {
			fprintf(stderr, "start_stop: %s: %s %s\n", events[i], err, pmon_session_errmsg(s));
			pmon_machine_close(m);
			return;
		}
	for (int b = 0; b < BATCHES; b++) {
		uint64_t in_start = 0, in_stop = 0, c0 = bench_cpu_ns();
		for (int r = 0; r < rounds; r++) {
			uint64_t t0 = bench_ns();
			int rc = pmon_session_start(s);
			uint64_t t1 = bench_ns();
			rc = rc ? rc : pmon_session_stop(s, NULL);
			uint64_t t2 = bench_ns();
			if (rc) {
				fprintf(stderr, "start_stop: %s: %s\n", backend, pmon_session_errmsg(s));
				pmon_machine_close(m);
				return;
			}
			in_start += t1 - t0;
			in_stop += t2 - t1;
		}
		tc[b] = (double)(bench_cpu_ns() - c0) / rounds / NBOX / 1e3;
		ts[b] = (double)in_start / rounds / NBOX / 1e3;
		tp[b] = (double)in_stop / rounds / NBOX / 1e3;
	}
	*start = bench_median(ts, BATCHES);
	*stop = bench_median(tp, BATCHES);
	*cpu = bench_median(tc, BATCHES);
	pmon_session_destroy(s);
	pmon_machine_close(m);
}

static void row(const char *what, double start, double stop, double cpu)
{
	if (start < 0)
		printf("  %-50s %8s %8s %8s %8s\n", what, "-", "-", "-", "-");
	else
		printf("  %-50s %8.1f %8.1f %8.1f %8.1f\n", what, start, stop, start + stop, cpu);
}

static void load(const char *when)
{
	double l[3];
	if (getloadavg(l, 3) == 3)
		printf("  (load average %s: %.2f %.2f %.2f)\n", when, l[0], l[1], l[2]);
}

/* A hardware-style run directory under parent: made, used, removed. */
static void hw_row(const char *parent, const char *label, int rounds)
{
	char dir[256], what[96];
	double a, b, c;
	snprintf(dir, sizeof(dir), "%s/pmon-bench-XXXXXX", parent);
	if (!mkdtemp(dir)) {
		row(label, -1, -1, -1);
		return;
	}
	setenv("PMON_RUN_DIR", dir, 1);
	measure("msr", rounds, &a, &b, &c);
	struct statfs fs;
	int tmpfs = !statfs(dir, &fs) && fs.f_type == 0x01021994;   /* TMPFS_MAGIC */
	snprintf(what, sizeof(what), "%s (%s)", label, tmpfs ? "tmpfs" : "not tmpfs");
	row(what, a, b, c);
	fake_rmtree(dir);
}

int main(int argc, char **argv)
{
	char base[128];
	struct fake_world w;
	double a, b, c;
	int tmpfs_only = argc > 1 && !strcmp(argv[1], "tmpfs");
	setenv("PMON_QUIET", "1", 1);
	printf("session start and stop, median us per box (%d boxes a session, %d rounds x %d "
	       "batches; %d rounds on /tmp)\n", NBOX, ROUNDS, BATCHES, ROUNDS / 20);
	printf("  %-50s %8s %8s %8s %8s\n", "", "start", "stop", "both", "both,CPU");
	load("before");
	if (!tmpfs_only) {
		measure("sim", ROUNDS, &a, &b, &c);
		row("emulated machine (locks in the process)", a, b, c);
	}
	if (fake_tmpdir(base, sizeof(base)) || fake_snbep_world(base, 1, &w)) {
		fprintf(stderr, "start_stop: cannot make the fake device files\n");
		return 1;
	}
	hw_row("/dev/shm", "fake hardware, run directory in /dev/shm", ROUNDS);
	/* a disk's directory operations take longer: fewer rounds */
	if (!tmpfs_only)
		hw_row("/tmp", "fake hardware, run directory in /tmp", ROUNDS / 20);
	fake_rmtree(base);
	load("after");
	printf("  (target: start+stop under 50 us per box on hardware run directories on tmpfs)\n");
	return 0;
}
