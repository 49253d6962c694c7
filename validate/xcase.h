/*
 * xcase.h - the cases of the suite's smaller experiments as their
 * expectations see them: the kernel's parameters (how many lines, which
 * socket and CPUs) and the run's (silicon or the emulated machine, the
 * --break), which a generation's expectations (gen_*.c) turn into a vxset
 * (vexp.h), run by the experiment (exp_*.c).
 */
#ifndef PMON_VALIDATE_XCASE_H
#define PMON_VALIDATE_XCASE_H

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

#endif
