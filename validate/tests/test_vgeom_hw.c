/*
 * test_vgeom_hw.c - the validation suite's geometry from the hardware
 * (vgeom_from_hw) on fake device files (ctests/fake_hw.h): a two-socket
 * SNB-EP, a Nehalem-EP (model 26) and a Westmere-EP (model 44).
 *
 *   - the generation and its uncore: SNB-EP's CBos and iMC channels as
 *     found; Nehalem/Westmere one uncore PMU a socket, 3 channels, one LLC;
 *   - the PCU clock (a constant 800 MHz) is known only where the machine has
 *     a PCU box (SNB-EP); Nehalem-EP and Westmere-EP have none, so their
 *     PCLK is unknown (0) and the suite makes no PCU clock check there.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <pmon/pmon.h>

#include "check.h"
#include "fake_hw.h"
#include "../geom.h"

static int from_world(const char *what, unsigned model, const char *brand, struct vgeom *g)
{
	char base[64], why[256];
	struct fake_world w;
	pmon_machine_t *m = NULL;
	int ok = !fake_tmpdir(base, sizeof(base)) &&
		 !(model ? fake_nhm_world(base, model, brand, &w) : fake_snbep_world(base, 1, &w));
	CHECK(ok, "%s: the fake device files", what);
	if (ok) {
		int rc = pmon_machine_open(&m, "msr", why, sizeof(why));
		CHECK(rc == 0, "%s: open the fake machine: %s", what, why);
		ok = rc == 0;
	}
	if (ok) {
		vgeom_from_hw(m, g);
		pmon_machine_close(m);
	}
	fake_rmtree(base);
	return ok;
}

int main(void)
{
	struct vgeom g;
	if (from_world("SNB-EP", 0, NULL, &g)) {
		CHECK_EQ_INT(g.gen, VG_SNBEP, "SNB-EP: generation");
		CHECK_EQ_INT(g.sockets, 2, "SNB-EP: sockets");
		CHECK(g.pclk_hz == 800e6, "SNB-EP: the PCU's 800 MHz clock known (%g)", g.pclk_hz);
	}
	static const struct { const char *what; unsigned model; const char *brand; int gen; } nhm[] = {
		{ "Nehalem-EP", 26, "Intel(R) Xeon(R) CPU X5570 @ 2.93GHz", VG_NHMEP },
		{ "Westmere-EP", 44, "Intel(R) Xeon(R) CPU X5670 @ 2.93GHz", VG_WSMEP },
	};
	for (size_t i = 0; i < sizeof(nhm) / sizeof(nhm[0]); i++) {
		if (!from_world(nhm[i].what, nhm[i].model, nhm[i].brand, &g))
			continue;
		CHECK(g.gen == nhm[i].gen, "%s: generation %d, want %d", nhm[i].what, g.gen, nhm[i].gen);
		CHECK(g.channels == 3, "%s: %d channels, want 3", nhm[i].what, g.channels);
		CHECK(g.slices == 1, "%s: %d LLC slices, want 1 (no slices)", nhm[i].what, g.slices);
		CHECK(g.pclk_hz == 0, "%s: no PCU, its clock unknown (pclk_hz %g, want 0)", nhm[i].what,
		      g.pclk_hz);
	}
	return check_done("test_vgeom_hw");
}
