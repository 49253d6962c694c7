/*
 * gen_nhm_partial.c - partial-line streaming stores on the Nehalem-EP /
 * Westmere-EP uncore, as data (vspec.h).  Each line leaves the
 * write-combining buffer half full: the home's memory controller gets a
 * partial-line write (UNC_IMC_WRITES.PARTIAL, guide Table 39: "partial
 * line writes"), one per line, and no full-line write.  DRAM stores whole
 * lines (a burst of 64 bytes, ECC over the line), so the controller reads
 * the line first and writes it merged: a read CAS and a write CAS per line
 * (UNC_DRAM_READ_CAS, UNC_DRAM_WRITE_CAS); that merge read is not one of
 * the home's normal reads (UNC_IMC_NORMAL_READS counts the reads requests
 * ask for: none, the caches being clean and empty and nothing loaded).
 */
#include "vgen.h"
#include "vspec.h"

/* "CH0:CH1:CH2" for the geometry's channels. */
void nhm_channels(const struct vgeom *g, char *out, size_t len)
{
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < g->channels && n < len; i++)
		n += (size_t)snprintf(out + n, len - n, "%sCH%d", i ? ":" : "", i);
}

int nhm_partial(const struct vgeom *g, const struct partial_case *k, struct vxset *x)
{
	const char *u = nhm_unc_pmu(g);
	char ch[16], f[5][80];
	nhm_channels(g, ch, sizeof(ch));
	snprintf(f[0], sizeof(f[0]), "%s::UNC_IMC_WRITES:PARTIAL_ANY:socket=%%d", u);
	snprintf(f[1], sizeof(f[1]), "%s::UNC_IMC_WRITES:FULL_ANY:socket=%%d", u);
	snprintf(f[2], sizeof(f[2]), "%s::UNC_IMC_NORMAL_READS:ANY:socket=%%d", u);
	snprintf(f[3], sizeof(f[3]), "%s::UNC_DRAM_READ_CAS:%s:socket=%%d", u, ch);
	snprintf(f[4], sizeof(f[4]), "%s::UNC_DRAM_WRITE_CAS:%s:socket=%%d", u, ch);
	int s = k->socket;
	const struct vspec_on on = { k->brk, k->hw,
		{ 0.95, 1.05, "silicon: other agents' DRAM traffic in the socket meanwhile" },
		(double)k->lines, "lines" };
	/* --break=partial: the partial writes programmed as full ones */
	const struct vspec rows[] = {
		{ VS_ONE, f[0], s, 1, "IMC_WRITES.PARTIAL.ANY", VS_EXACT, VB_PARTIAL, f[1] },
		{ VS_ONE, f[1], s, 0, "IMC_WRITES.FULL.ANY", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[2], s, 0, "IMC_NORMAL_READS.ANY", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[3], s, 1, "DRAM_READ_CAS all ch (merge reads)", VS_EXACT, VB_NONE, NULL },
		{ VS_ONE, f[4], s, 1, "DRAM_WRITE_CAS all ch", VS_EXACT, VB_NONE, NULL },
	};
	vx_init(x);
	return vspec_win(g, x, "partial-nt", 0, 1, rows, 5, &on);
}
