/*
 * xstream.h - STREAM as its expectations see it: the case (which kernel,
 * stores, where the memory is, how many lines) that a generation's STREAM
 * expectations (gen_*_stream.c) turn into a vxset (vexp.h), run by
 * exp_stream.c.
 */
#ifndef PMON_VALIDATE_XSTREAM_H
#define PMON_VALIDATE_XSTREAM_H

#include <stdint.h>

#include "expect.h"
#include "vrun.h"

/* Window tags (struct vxwin.tag): what exp_stream.c runs in the window. */
enum { XS_MAIN, XS_QUARTER };

struct stream_case {
	char kname[40];           /* "stream-copy", "numa-remote-triad" */
	enum stream_kernel k;
	int nt;                   /* non-temporal stores */
	int home;                 /* the socket that holds the arrays */
	int req;                  /* the threads' socket */
	uint64_t elems;           /* elements per array (whole pages) */
	int threads;
	const int *cpus;          /* the threads' CPUs */
	int hw;
	enum vbreak brk;
	int link_util;            /* the remote Triad's QPI link utilisation window follows */
};

/* The STREAM prefetch race bound for the case (0 with the prefetchers off). */
double stream_case_pf(const struct vgeom *g, const struct stream_case *k, uint64_t lines);

#endif
