/*
 * exp_power.c - the PCU over windows of known length in which the suite
 * only waits: what the generation expects of its power-management counters
 * (vgen.h: gen_snbep_power.c), run by vx_run.
 */
#include "vgen.h"

int exp_power(struct vctx *c)
{
	struct vxset *xs = vx_new(c, "power");
	if (!xs)
		return -1;
	const struct power_case k = { c->o.quick ? 50 : 100, c->o.socket, c->hw, c->o.brk };
	const struct vxkern kern = { vx_sleep, NULL, NULL, 0 };
	return vx_go(c, "power", xs, vgen_of(c)->power(&c->g, &k, xs), &kern, NULL);
}
