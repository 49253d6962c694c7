/*
 * xchase.c - the pointer chase's layout, as its expectations derive it
 * (xchase.h): pure functions of the geometry, the cycle and its physical
 * lines.
 */
#include <stdlib.h>
#include <string.h>

#include "vexp.h"
#include "xchase.h"

void chase_kname(const struct chase_case *k, char *buf, size_t len)
{
	snprintf(buf, len, "chase-%s-%s%s", k->page ? "page" : "line", chase_level_name[k->lvl],
		 k->home != k->socket ? "-remote" : "");
}

int chase_run_level(const struct vgeom *g, enum chase_level lvl)
{
	uint64_t ws = chase_ws_bytes(g, lvl);
	if (lvl >= CL_LLC || ws <= g->llc_bytes / 4)
		return (int)lvl;
	if (chase_level_of(g, ws) == CL_MEM)
		return CL_MEM;
	return -1;
}

long chase_priv_conflicts(const uint64_t *line, uint64_t n, uint64_t sets, int ways, uint8_t *map)
{
	if (sets & (sets - 1))
		return -1;
	return overfull_lines(line, n, sets, ways, map);
}

/* Each line's LLC set of all slices is slice * sets + its set: one cache of
 * slices * sets sets for overfull_lines (one slice on Nehalem). */
long chase_llc_conflicts(const struct vgeom *g, const uint64_t *line, uint64_t n, uint8_t *lostmap)
{
	int slices = vgeom_slices(g);
	uint64_t sets = g->llc_bytes / (uint64_t)slices / 64 / (uint64_t)g->llc_ways;
	uint64_t *cell = malloc(sizeof(*cell) * (n ? n : 1));
	long lost = -1;
	if (!cell || sets == 0) {
		free(cell);
		return -1;
	}
	for (uint64_t i = 0; i < n; i++) {
		int sl = vgeom_llc_slice(g, line[i] * 64);
		if (sl < 0 || sl >= slices) {
			free(cell);
			return -1;
		}
		cell[i] = (uint64_t)sl * sets + line[i] % sets;
	}
	lost = overfull_lines(cell, n, sets * (uint64_t)slices, g->llc_ways, lostmap);
	free(cell);
	return lost;
}

double chase_lost_share(const struct chase_el *base, const uint8_t *lostmap, const uint8_t *within,
			uint64_t hops)
{
	const struct chase_el *p = base;
	uint64_t k = 0, d = 0;
	for (uint64_t h = 0; h < hops; h++, p = p->next) {
		k += lostmap[p - base];
		d += within ? within[p - base] : 1;
	}
	return d ? (double)k / (double)d : 0;
}

double chase_pf_demand_share(const struct chase_el *base, uint64_t vbase, uint32_t n)
{
	const struct chase_el *p = base;
	uint8_t ord[64];
	int m = 0;
	uint64_t page = UINT64_MAX, demand = 0;
	if (vbase % 4096 || n % 64)
		return -1;
	for (uint32_t h = 0; h <= n; h++, p = p->next) {
		uint64_t i = (uint64_t)(p - base);
		if (h == n || i / 64 != page || m == 64) {
			demand += (uint64_t)pf_page_demand(ord, m);
			m = 0;
			page = i / 64;
		}
		ord[m++] = (uint8_t)(i % 64);
	}
	return (double)demand / n;
}

void chase_layout_free(struct chase_layout *l)
{
	free(l->lostmap);
	free(l->reachmap);
	l->lostmap = l->reachmap = NULL;
}

int chase_layout(const struct vgeom *g, const struct chase_case *k, enum chase_level lvl,
		 struct vxset *x, struct chase_layout *out)
{
	uint64_t ws = chase_ws_bytes(g, k->lvl);
	uint32_t n = (uint32_t)(ws / 64);
	char kname[40];

	memset(out, 0, sizeof(*out));
	chase_kname(k, kname, sizeof(kname));
	/* The L2 level: lines of overfull L2 sets miss L2 on every pass and
	 * hit the LLC (page colouring: L2 is indexed by physical address).
	 * An LLC level whose set is not apart from the L2 (LLC/4 below twice
	 * the L2, on a small LLC) is counted the same way: the L2 then decides
	 * which lines reach the LLC. */
	out->derived = lvl == CL_L1 || lvl == CL_L2 ||
		       (lvl == CL_LLC && chase_level_of(g, ws) != CL_LLC);
	/* While planning the pages have no frames yet (taken at first
	 * touch): the plan counts the level as without conflicts; a check
	 * they turn into a skip (or back) keeps the step's total. */
	if (lvl == CL_MEM || !k->sim || k->planning)
		return 0;
	/* The inclusive LLC: lines of LLC sets that receive more lines than
	 * ways miss it on every pass, at any level; the others stay. */
	out->lostmap = calloc(n, 1);
	out->reachmap = calloc(n, 1);
	out->llost = k->line && out->lostmap && out->reachmap ?
		chase_llc_conflicts(g, k->line, n, out->lostmap) : -1;
	/* An LLC set apart from the L2 by size (at least twice it) may still
	 * leave some L2 sets with no more lines than ways (few pages of one
	 * colour): the L2 keeps those lines.  Decided from the page table: if
	 * any line is in such a set, the L2 decides which lines reach the
	 * LLC, as above. */
	int llc_l2 = lvl == CL_LLC && !out->derived;
	if (out->llost >= 0)
		out->lost = chase_priv_conflicts(k->line, n, g->l2_bytes / 64 / (uint64_t)g->l2_ways,
						 g->l2_ways, out->reachmap);
	if (out->llost < 0 || out->lost < 0) {
		snprintf(x->err, sizeof(x->err), "chase: physical addresses of the set unknown");
		chase_layout_free(out);
		return -1;
	}
	if (llc_l2 && out->lost < (long)n) {
		out->derived = 1;
		vx_note(x, "  %s: %ld of %u lines in L2 sets with at most %d lines: the L2 keeps them",
			kname, (long)n - out->lost, n, g->l2_ways);
	} else if (llc_l2) {
		out->lost = 0;
		memset(out->reachmap, 0, n);
	}
	for (uint32_t i = 0; i < n; i++) {
		out->reachmap[i] |= out->lostmap[i];
		out->reach += out->reachmap[i];
	}
	if (out->lost > 0)
		vx_note(x, "  %s: %ld of %u lines in L2 sets with more than %d lines", kname, out->lost,
			n, g->l2_ways);
	if (out->llost > 0) {
		vx_note(x, "  %s: %ld of %u lines in LLC sets with more than %d lines", kname,
			out->llost, n, g->llc_ways);
	} else {
		free(out->lostmap);
		out->lostmap = NULL;
	}
	return 0;
}
