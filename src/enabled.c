/* enabled.c - uncore PMON controls found enabled now (pmon_machine_enabled_ctls),
 * a box's (pmon_box_enabled) and their text (pmon_enabled_ctls_text). */
#include <stdio.h>
#include <string.h>

#include "enabled.h"
#include "machine.h"
#include "why.h"

/* Note one enabled control (the first max are kept). */
static void found(const struct pmon_box_regs *r, enum pmon_reg_kind k, int idx, uint64_t v,
		  struct pmon_enabled_walk *w)
{
	if (w->n < w->max) {
		w->ctl[w->n].pmu = r->pmu;
		w->ctl[w->n].value = v;
		pmon_reg_name(r, k, idx, w->ctl[w->n].reg, sizeof(w->ctl[w->n].reg));
	}
	w->n++;
}

int pmon_box_enabled(struct pmon_machine *m, const struct pmon_box_regs *r, int fixed,
		     struct pmon_enabled_walk *w, char *why, size_t whylen)
{
	const struct pmon_box_type *t = r->t;
	uint64_t v;
	int rc;
	w->ctls = 0;
	for (int c = 0; c < t->ncounters; c++) {
		if ((rc = pmon_reg_read(m, r, REG_CTL, c, &v, why, whylen))) {
			w->failed = c;
			return rc;
		}
		if (v & PMON_CTL_EN) {
			w->ctls |= 1u << c;
			found(r, REG_CTL, c, v, w);
		}
	}
	if (fixed && t->has_fixed && t->fixed_en) {
		if ((rc = pmon_reg_read(m, r, REG_FIXED_CTL, 0, &v, why, whylen))) {
			w->failed = -1;
			return rc;
		}
		if (v & t->fixed_en)
			found(r, REG_FIXED_CTL, 0, v, w);
	}
	return PMON_OK;
}

int pmon_machine_enabled_ctls(pmon_machine_t *m, int socket, pmon_enabled_ctl_t *out, int max,
			      char *why, size_t whylen)
{
	int npmus, rc;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	struct pmon_enabled_walk w = { .ctl = out, .max = max };
	char rwhy[PMON_WHY_LEN];
	if (socket < 0 || socket >= m->topo.nsockets || socket >= PMON_MAX_SOCKETS)
		return pmon_why(why, whylen, PMON_ERANGE, "socket %d out of range (the machine has %d)",
				socket, m->topo.nsockets);
	for (int p = 0; p < npmus && p < PMON_MAX_PMUS; p++) {
		struct pmon_box_regs r;
		if (pmus[p].type->space == PMON_SPACE_CORE || !m->loc[p][socket].present)
			continue;
		if ((rc = pmon_regs_resolve(m, p, socket, -1, &r)))
			return pmon_why(why, whylen, rc, "%s socket %d: no registers", pmus[p].name, socket);
		if ((rc = pmon_box_enabled(m, &r, 1, &w, rwhy, sizeof rwhy)) && w.failed >= 0)
			return pmon_why(why, whylen, rc, "reading %s socket %d CTL%d failed: %s",
					pmus[p].name, socket, w.failed, rwhy);
		if (rc)
			return pmon_why(why, whylen, rc, "reading %s socket %d FIXED_CTL failed: %s",
					pmus[p].name, socket, rwhy);
	}
	return w.n;
}

void pmon_enabled_ctls_text(char *buf, size_t len, const pmon_enabled_ctl_t *ctl, int n)
{
	if (!buf || !len)
		return;
	buf[0] = 0;
	for (int i = 0; i < n && i < PMON_ENABLED_NAMED; i++)
		pmon_why_add(buf, len, "; ", "%s = 0x%llx", ctl[i].reg, (unsigned long long)ctl[i].value);
	if (n > PMON_ENABLED_NAMED)
		pmon_why_add(buf, len, "", " and %d more", n - PMON_ENABLED_NAMED);
}
