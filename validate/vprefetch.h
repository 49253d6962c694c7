/*
 * vprefetch.h - the prefetchers' control (MSR 0x1A4) on the CPUs of a run.
 *
 * Without --prefetch=off the MSR is only read, on each CPU of the run, and
 * recorded.  With it (root on hardware; the emulated machine's own
 * register otherwise) its bits 0-3 are set on every CPU of the machine for
 * the run (the kernels' CPUs, the remote CPUs the share, numa and pfreq
 * kernels use, and the rest: the expectations assume every prefetcher
 * involved off) -- the one register outside the PMON set pmon-validate
 * writes, and only on this explicit request -- and the bits found are put
 * back at the end, on an error, and on SIGINT, SIGTERM, SIGHUP or SIGQUIT.
 */
#ifndef PMON_VALIDATE_VPREFETCH_H
#define PMON_VALIDATE_VPREFETCH_H

#include <stddef.h>
#include <stdint.h>

#include <pmon/pmon.h>

#define VPF_MAX 256

struct vpf {
	pmon_machine_t *m;
	int hw;                  /* the hardware (restore from a signal handler too) */
	int n;
	int cpu[VPF_MAX];
	int ok[VPF_MAX];         /* read */
	uint64_t found[VPF_MAX]; /* the MSR as found */
	char why[VPF_MAX][160];  /* why not read */
	int off;                 /* bits set by vpf_off, to put back */
	int set[VPF_MAX];        /* this CPU's bits were changed */
};

/* Read MSR 0x1A4 on each of cpus[0..n) (never written).  How many read. */
int vpf_read(struct vpf *p, pmon_machine_t *m, int hw, const int *cpus, int n);
/* Read MSR 0x1A4 of every other CPU of the machine too (appended after the
 * run's), then set the prefetcher bits (all four off) on each.  On a
 * failure (a CPU that cannot be read or written, more than VPF_MAX CPUs)
 * the CPUs already changed are put back: -1 with why, nothing changed (or
 * why names those not restored). */
int vpf_off(struct vpf *p, char *why, size_t len);
/* Put back the bits found where they were changed.  0, or -1 with why
 * naming the CPUs that could not be restored. */
int vpf_restore(struct vpf *p, char *why, size_t len);
/* Restore also on SIGINT, SIGTERM, SIGHUP and SIGQUIT (hardware only: the
 * emulated machine ends with the process), then die of the signal. */
void vpf_restore_on_signals(struct vpf *p);

#endif
