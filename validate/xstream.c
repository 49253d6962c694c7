/*
 * xstream.c - STREAM's case helpers shared by the generations (xstream.h).
 */
#include "xstream.h"

double stream_case_pf(const struct vgeom *g, const struct stream_case *k, uint64_t lines)
{
	return g->prefetch ? stream_pf_extra(g, k->k, k->nt, lines, k->threads, KF_BUF) : 0;
}
