/*
 * reset.c - `pmon reset`: put the registers back after a process that
 * counted died without restoring them.
 *
 * Per socket: take the lock of every box of the socket (uncore boxes, and
 * the core PMU of each of its CPUs); if a live process holds one, refuse
 * and write nothing.  Then, if the socket has a journal (journal.h), write
 * every journaled register back (IA32_PERF_GLOBAL_CTRL only in pmon's bits)
 * and remove its lines; a line of mask 0 (a register another agent took
 * over while pmon counted) is not written, is named in the report and
 * stays.  Without a journal, return every PMON control,
 * fixed control, filter and box control of the socket's uncore boxes to its
 * power-on value, 0; the core PMU is left alone then (perf and the NMI
 * watchdog share it, and nothing says pmon touched it).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmon/pmon.h"
#include "boxlock.h"
#include "journal.h"
#include "regs.h"
#include "why.h"

static int core_pmu(const struct pmon_pmu *p) { return p->type->space == PMON_SPACE_CORE; }

/* Lock every box of the socket; PMON_EBUSY naming the holder. */
static int lock_socket(struct pmon_machine *m, struct pmon_boxlocks *L, int socket, char *why,
		       size_t len)
{
	int npmus;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	for (int p = 0; p < npmus; p++) {
		if (!m->loc[p][socket].present)
			continue;
		for (int cpu = 0; cpu < (core_pmu(&pmus[p]) ? m->topo.ncpus : 1); cpu++) {
			char name[80], w[512];
			long holder;
			if (core_pmu(&pmus[p]) && m->topo.cpu_socket[cpu] != socket)
				continue;
			pmon_boxlock_name(name, sizeof(name), pmus[p].name, socket,
					  core_pmu(&pmus[p]) ? cpu : -1);
			int rc = pmon_boxlock_take(L, name, &holder, w, sizeof(w));
			if (rc == PMON_EBUSY)
				return pmon_why(why, len, rc, "socket %d: %s; stop that process first "
						"(nothing was written)", socket, w);
			if (rc)
				return pmon_why(why, len, rc, "socket %d: %s", socket, w);
		}
	}
	return PMON_OK;
}

static void note_failure(char *left, size_t len, const char *name, const char *why)
{
	size_t n = strlen(left);
	if (n < len)
		snprintf(left + n, len - n, "%s%s (%s)", n ? "; " : "", name, why);
}

static int put(struct pmon_machine *m, const struct pmon_box_regs *r, enum pmon_reg_kind k,
	       int idx, uint64_t v, uint64_t mask, char *left, size_t len)
{
	char why[PMON_WHY_LEN], name[160];
	int rc = PMON_OK;
	for (int t = 0; t < 3; t++) {
		uint64_t cur = 0;
		rc = PMON_OK;
		if (mask != ~0ull)
			rc = pmon_reg_read(m, r, k, idx, &cur, why, sizeof why);
		if (!rc)
			rc = pmon_reg_write(m, r, k, idx, (cur & ~mask) | (v & mask), why, sizeof why);
		if (!rc)
			return PMON_OK;
	}
	pmon_reg_name(r, k, idx, name, sizeof(name));
	note_failure(left, len, name, why);
	return rc;
}

static int from_journal(struct pmon_machine *m, int socket, struct pmon_journal_entry *e, int n,
			int *written, char *left, size_t len, char *alone, size_t alen)
{
	int first = 0;
	for (int i = 0; i < n; i++) {
		struct pmon_box_regs r;
		int pmu = pmon_pmu_find(e[i].box);
		if (!e[i].mask) {
			/* another agent's since pmon's stop found it changed */
			char name[160];
			if (pmu < 0 || pmon_regs_resolve(m, pmu, socket, e[i].cpu, &r))
				snprintf(name, sizeof(name), "%s %s %d", e[i].box,
					 pmon_reg_kind_name(e[i].kind), e[i].idx);
			else
				pmon_reg_name(&r, e[i].kind, e[i].idx, name, sizeof(name));
			size_t k = strlen(alone);
			if (k < alen)
				snprintf(alone + k, alen - k, "%s%s (0x%llx when pmon stopped)",
					 k ? "; " : "", name, (unsigned long long)e[i].value);
			continue;
		}
		if (pmu < 0 || pmon_regs_resolve(m, pmu, socket, e[i].cpu, &r)) {
			note_failure(left, len, e[i].box, "not present on this machine");
			first = first ? first : PMON_ENODEV;
			continue;
		}
		int rc = put(m, &r, e[i].kind, e[i].idx, e[i].value, e[i].mask, left, len);
		if (rc)
			first = first ? first : rc;
		else
			(*written)++;
	}
	return first;
}

static int power_on(struct pmon_machine *m, int socket, int *written, char *left, size_t len)
{
	int npmus, first = 0;
	const struct pmon_pmu *pmus = pmon_catalog(&npmus);
	for (int p = 0; p < npmus; p++) {
		const struct pmon_box_type *t = pmus[p].type;
		struct pmon_box_regs r;
		if (core_pmu(&pmus[p]) || pmon_regs_resolve(m, p, socket, -1, &r))
			continue;
		int rc;
#define PUT(k, i) do { if ((rc = put(m, &r, k, i, 0, ~0ull, left, len))) first = first ? first : rc; \
		       else (*written)++; } while (0)
		if (t->has_box_ctl)
			PUT(REG_BOX_CTL, 0);
		for (int c = 0; c < t->ncounters; c++)
			PUT(REG_CTL, c);
		if (t->has_fixed)
			PUT(REG_FIXED_CTL, 0);
		for (int f = 0; f < t->nfregs; f++)
			if (!t->fregs[f].extra_dev || r.has_extra)
				PUT(REG_FILTER, f);
#undef PUT
	}
	return first;
}

int pmon_machine_reset(pmon_machine_t *m, int socket, char *report, size_t len)
{
	int s0 = socket < 0 ? 0 : socket, s1 = socket < 0 ? m->topo.nsockets - 1 : socket, first = 0;
	size_t n = 0;
	if (report && len)
		report[0] = 0;
	if (socket >= m->topo.nsockets || socket < -1)
		return pmon_why(report, len, PMON_ERANGE, "socket %d: this machine has sockets 0-%d",
				socket, m->topo.nsockets - 1);
	for (int s = s0; s <= s1; s++) {
		struct pmon_boxlocks L;
		struct pmon_journal_entry *e = NULL;
		char why[PATH_MAX + 4600], left[2048] = "", alone[2048] = "";
		int ne = 0, written = 0, rc;
		pmon_boxlocks_init(&L, m->run_dir);
		rc = lock_socket(m, &L, s, why, sizeof(why));
		/* an emulated machine dies with its process: it never has a journal */
		if (!rc && !m->emulated)
			rc = pmon_journal_load(m->run_dir, s, &e, &ne, why, sizeof(why));
		if (!rc) {
			rc = ne ? from_journal(m, s, e, ne, &written, left, sizeof(left), alone, sizeof(alone))
				: power_on(m, s, &written, left, sizeof(left));
			if (rc)
				snprintf(why, sizeof(why), "socket %d: registers left changed after retries: %s",
					 s, left);
			else if (ne)
				snprintf(why, sizeof(why), "socket %d: %d register(s) put back from the journal "
					 "%s/socket%d.journal", s, written, m->run_dir, s);
			else
				snprintf(why, sizeof(why), "socket %d: no journal; %d PMON control, filter and "
					 "box control register(s) returned to their power-on value 0", s, written);
			if (alone[0]) {
				size_t k = strlen(why);
				snprintf(why + k, sizeof(why) - k, "; left alone, as another agent took them "
					 "over while pmon counted (the journal keeps them so): %s", alone);
			}
		}
		/* the journal goes once everything in it is back */
		for (int i = 0; !rc && i < ne; i++) {
			char w[512];
			int j = 0;
			while (j < i && (strcmp(e[j].box, e[i].box) || e[j].cpu != e[i].cpu))
				j++;
			if (j == i && (rc = pmon_journal_drop(m->run_dir, s, e[i].box, e[i].cpu, w, sizeof(w))))
				snprintf(why, sizeof(why), "socket %d: %s", s, w);
		}
		free(e);
		pmon_boxlocks_fini(&L);
		if (rc && !first)
			first = rc;
		if (report && n < len)
			n += (size_t)snprintf(report + n, len - n, "%s%s", n ? "\n" : "", why);
	}
	return first;
}
