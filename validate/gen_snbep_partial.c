/*
 * gen_snbep_partial.c - partial-line streaming stores on the SNB-EP uncore,
 * as data (vspec.h): each line leaves the write-combining buffer half full,
 * a partial write (TOR opcode WCiL).  The guide: the HA's IMC_WRITES counts
 * full and partial line writes apart (PARTIAL, one per line; FULL none), and
 * the iMC merges a partial write with the line read from DRAM first, an
 * underfill read (CAS_COUNT.RD_UNDERFILL, "generally about the same as the
 * number of partial writes, but may be slightly less because of partials
 * hitting in the WPQ"), then writes it (CAS_COUNT.WR, one per line).  No
 * regular read: the caches are clean and empty at the window's start and
 * nothing is loaded.
 */
#include "vgen.h"
#include "vspec.h"

int snbep_partial(const struct vgeom *g, const struct partial_case *k, struct vxset *x)
{
	int s = k->socket;
	vx_init(x);
	struct vxwin *w = vx_win(x);
	w->clean = 1;
	const struct vspec_on on = { k->brk, k->hw,
		{ 0.95, 1.05, "silicon: other agents' DRAM traffic; a partial write hitting the WPQ "
		  "merges there without an underfill (guide)" }, (double)k->lines, "lines" };
	/* --break=partial: IMC_WRITES.PARTIAL programmed as FULL, RD_UNDERFILL
	 * as RD_REG */
	const struct vspec rows[] = {
		{ VS_ONE, "snbep_unc_ha::UNC_H_IMC_WRITES:PARTIAL:socket=%d", s, 1,
		  "HA IMC_WRITES.PARTIAL", VS_EXACT, VB_PARTIAL,
		  "snbep_unc_ha::UNC_H_IMC_WRITES:FULL:socket=%d" },
		{ VS_ONE, "snbep_unc_ha::UNC_H_IMC_WRITES:FULL:socket=%d", s, 0,
		  "HA IMC_WRITES.FULL", VS_EXACT, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD_UNDERFILL:socket=%d", s, 1,
		  "CAS_COUNT.RD_UNDERFILL all ch", VS_EXACT, VB_PARTIAL,
		  "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD_REG:socket=%d" },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:RD_REG:socket=%d", s, 0,
		  "CAS_COUNT.RD_REG all ch", VS_EXACT, VB_NONE, NULL },
		{ VS_CH, "snbep_unc_imc%d::UNC_M_CAS_COUNT:WR:socket=%d", s, 1,
		  "CAS_COUNT.WR all ch", VS_EXACT, VB_NONE, NULL },
	};
	return vspec_add(g, x, w, rows, 5, &on);
}
