/* enabled.c - uncore PMON controls found enabled now (pmon_machine_enabled_ctls). */
#include <stdio.h>
#include <string.h>

#include "machine.h"
#include "regs.h"
#include "why.h"

/* Note one enabled control (the first max are kept). */
static void found(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, uint64_t v,
		  pmon_enabled_ctl_t *out, int max, int *n)
{
	if (*n < max) {
		out[*n].pmu = r->pmu;
		out[*n].value = v;
		pmon_reg_name(r, k, idx, out[*n].reg, sizeof(out[*n].reg));
	}
	++*n;
}

int pmon_machine_enabled_ctls(pmon_machine_t *m, int socket, pmon_enabled_ctl_t *out, int max,
			      char *why, size_t whylen)
{
	int npmus, n = 0, rc;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	char rwhy[PMON_WHY_LEN];
	if (socket < 0 || socket >= m->topo.nsockets || socket >= PMON_MAX_SOCKETS)
		return pmon_why(why, whylen, PMON_ERANGE, "socket %d out of range (the machine has %d)",
				socket, m->topo.nsockets);
	for (int p = 0; p < npmus && p < PMON_MAX_PMUS; p++) {
		const struct pmon_box_type *t = pmus[p].type;
		struct pmon_box_regs r;
		if (t->space == PMON_SPACE_CORE || !m->loc[p][socket].present)
			continue;
		if ((rc = pmon_regs_resolve(m, p, socket, -1, &r)))
			return pmon_why(why, whylen, rc, "%s socket %d: no registers", pmus[p].name, socket);
		for (int c = 0; c < t->ncounters; c++) {
			uint64_t v;
			if ((rc = pmon_reg_read(m, &r, REG_CTL, c, &v, rwhy, sizeof rwhy)))
				return pmon_why(why, whylen, rc, "reading %s socket %d CTL%d failed: %s",
						pmus[p].name, socket, c, rwhy);
			if (v & PMON_CTL_EN)
				found(&r, REG_CTL, c, v, out, max, &n);
		}
		if (t->has_fixed && t->fixed_en) {
			uint64_t v;
			if ((rc = pmon_reg_read(m, &r, REG_FIXED_CTL, 0, &v, rwhy, sizeof rwhy)))
				return pmon_why(why, whylen, rc, "reading %s socket %d FIXED_CTL failed: %s",
						pmus[p].name, socket, rwhy);
			if (v & t->fixed_en)
				found(&r, REG_FIXED_CTL, 0, v, out, max, &n);
		}
	}
	return n;
}
