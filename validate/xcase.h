/*
 * xcase.h - the cases of the suite's smaller experiments as their
 * expectations see them: the kernel's parameters (how many lines, which
 * socket and CPUs) and the run's (silicon or the emulated machine, the
 * --break), which a generation's expectations (gen_*.c) turn into a vxset
 * (vexp.h), run by the experiment (exp_*.c).
 */
#ifndef PMON_VALIDATE_XCASE_H
#define PMON_VALIDATE_XCASE_H

#include <stddef.h>
#include <stdint.h>

#include "vrun.h"

/* Partial-line streaming stores (exp_partial.c): the first half of each of
 * lines consecutive lines written, memory on socket. */
struct partial_case {
	uint64_t lines;
	int socket;
	int hw;
	enum vbreak brk;
};

/* Bus locks (exp_lock.c): n locked adds from one thread of socket, each
 * across a line boundary (window tag 1), then each within a line (tag 0);
 * remote: another socket (socket itself with one). */
struct lock_case {
	uint64_t n;
	int socket, remote;
	int hw;
	enum vbreak brk;
};

/* Offcore requests by type (exp_pfreq.c): from cpu, page after page of
 * pages, caches clean at each window's start: loads of lines 0 and 2 of
 * each page (XP_LOADS), a store to line 0 of each (XP_STORES); dis: MSR
 * 0x1A4's prefetcher bits (a bit set turns one off). */
enum { XP_LOADS, XP_STORES };
struct pfreq_case {
	uint64_t pages;
	int cpu;
	unsigned dis;
	int hw;
	enum vbreak brk;
};

/* The PCU (exp_power.c): windows of ms in which the suite only waits,
 * counted on socket. */
struct power_case {
	double ms;
	int socket;
	int hw;
	enum vbreak brk;
};

/* The clocks against elapsed time (exp_clock.c): a window of ms in which
 * the suite only waits, counted on socket; measured: the run measured
 * UCLK, DCLK and QCLK first (vclock_measure). */
struct clock_case {
	double ms;
	int socket;
	int hw;
	int measured;
};

/* The channel probe (exp_chan.c): one load of each of lines n, whose
 * physical addresses pa[0..n) the documented address map puts on channel
 * target of socket, in address order, from cold caches. */
struct chan_case {
	const uint64_t *pa;
	size_t n;
	int target, socket;
	enum vbreak brk;
};

/* DRAM pages (exp_dram.c), from one thread, each window from cold caches:
 * every line of a buffer read in address order (XD_ROWHIT), the row-miss
 * lines read (XD_ROWMISS), every line written with streaming stores in
 * address order (XD_WRITE).  pa[0..lines): the buffer's lines' physical
 * addresses (NULL while planning: the pages have no frames yet); mpa[0..nm)
 * the row-miss lines', all on channel 0. */
enum { XD_ROWHIT, XD_ROWMISS, XD_WRITE };
struct dram_case {
	const uint64_t *pa;
	size_t lines;
	const uint64_t *mpa;
	size_t nm;
	int socket;
	int hw;
	enum vbreak brk;
};

/* Sharing (exp_share.c), home socket local, the other remote:
 *   SHARE_CORE      cpus a and b of the local socket take turns on one line
 *                   (a load and a store a turn), rounds rounds;
 *   SHARE_SOCKET    the same, a on the local socket, b on the remote one;
 *   SHARE_PRODCONS  producer a (local) writes n lines of w and m and reads
 *                   n of e and nf of f; consumer b (remote) reads m and f;
 *                   the producer sweeps ny lines; each window from clean
 *                   caches.  ypa[0..ny): the sweep's physical addresses
 *                   (NULL on silicon and while planning). */
enum share_kind { SHARE_CORE, SHARE_SOCKET, SHARE_PRODCONS };
struct share_case {
	enum share_kind kind;
	int local, remote;
	int a, b;
	uint64_t rounds;
	uint64_t n, nf, ny;
	const uint64_t *ypa;
	int hw;
	enum vbreak brk;
};

#endif
