/* metric.c - the derived-metric engine: look-ups in the declarative tables
 * of the registered generations (generation.h; snbep/metrics.c,
 * nhm/metrics.c), by name or by name on a machine's generation (several
 * declare MEM_BW_READS, each over its own events), full event names for a
 * box instance, and the formula
 * language (numbers, names, + - * / and parentheses) evaluated without a
 * NaN: a division by zero is "no value" (PMON_ERANGE). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "generation.h"
#include "machine.h"
#include "why.h"

/* Metrics and groups are numbered over the registered generations, in the
 * registry's order; *genp (may be NULL) the generation of the one found. */
static const struct pmon_metric_def *metric_at(int i, const struct pmon_generation **genp)
{
	for (int g = 0; i >= 0 && g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		if (i < *gen->nmetrics) {
			if (genp)
				*genp = gen;
			return &gen->metrics[i];
		}
		i -= *gen->nmetrics;
	}
	return NULL;
}

static const struct pmon_metric_def *metric_def(int i)
{
	return metric_at(i, NULL);
}

static const struct pmon_metric_group *group_at(int i, const struct pmon_generation **genp)
{
	for (int g = 0; i >= 0 && g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		if (i < *gen->ngroups) {
			if (genp)
				*genp = gen;
			return &gen->groups[i];
		}
		i -= *gen->ngroups;
	}
	return NULL;
}

static const struct pmon_metric_group *group_def(int i)
{
	return group_at(i, NULL);
}

static int nevents(const struct pmon_metric_def *d)
{
	int n = 0;
	while (n < PMON_METRIC_MAX_EVENTS && d->ev[n].label)
		n++;
	return n;
}

int pmon_metric_count(void)
{
	int n = 0;
	for (int g = 0; g < pmon_generation_count(); g++)
		n += *pmon_generation_at(g)->nmetrics;
	return n;
}

int pmon_metric_get(int metric, pmon_metric_info_t *out)
{
	const struct pmon_generation *gen = NULL;
	const struct pmon_metric_def *d = metric_at(metric, &gen);
	if (!d || !out)
		return d ? PMON_EINVAL : PMON_ERANGE;
	int n = nevents(d), np = 0;
	for (int k = 0; k < n; k++)
		if (d->ev[k].pass + 1 > np)
			np = d->ev[k].pass + 1;
	*out = (pmon_metric_info_t){ d->name, d->group, d->desc, d->formula, d->unit, d->scope, d->box,
				     d->guide, d->note ? d->note : "", n, np, gen->name, gen->title };
	return PMON_OK;
}

int pmon_metric_find(const char *name)
{
	for (int i = 0; name && metric_def(i); i++)
		if (!strcasecmp(metric_def(i)->name, name))
			return i;
	return PMON_ENOEVNT;
}

int pmon_metric_event_get(int metric, int k, pmon_metric_event_t *out)
{
	const struct pmon_metric_def *d = metric_def(metric);
	if (!d || k < 0 || k >= nevents(d))
		return PMON_ERANGE;
	if (!out)
		return PMON_EINVAL;
	const struct pmon_metric_ev *e = &d->ev[k];
	*out = (pmon_metric_event_t){ e->label, e->box, e->event, e->pass, e->nodes };
	return PMON_OK;
}

int pmon_metric_group_count(void)
{
	int n = 0;
	for (int g = 0; g < pmon_generation_count(); g++)
		n += *pmon_generation_at(g)->ngroups;
	return n;
}

int pmon_metric_group_get(int g, const char **name, const char **desc)
{
	const struct pmon_metric_group *d = group_def(g);
	if (!d)
		return PMON_ERANGE;
	if (name)
		*name = d->name;
	if (desc)
		*desc = d->desc;
	return PMON_OK;
}

int pmon_metric_group_find(const char *name)
{
	for (int g = 0; name && group_def(g); g++)
		if (!strcasecmp(group_def(g)->name, name))
			return g;
	return PMON_ENOEVNT;
}

const char *pmon_metric_group_generation(int g)
{
	const struct pmon_generation *gen = NULL;
	return group_at(g, &gen) ? gen->name : NULL;
}

/* ------------------------------------------------- on a machine's generation */

/* The generations other than own that declare a metric (or a group) of this
 * name, "X or Y" into buf; their number.  *first: the first one's index. */
static int others_with(const struct pmon_generation *own, const char *name, int group, char *buf,
		       size_t len, int *first)
{
	int n = 0, at = 0;
	buf[0] = 0;
	*first = -1;
	for (int g = 0; g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		int cnt = group ? *gen->ngroups : *gen->nmetrics, hit = 0;
		for (int i = 0; i < cnt && !hit; i++)
			hit = !strcasecmp(group ? gen->groups[i].name : gen->metrics[i].name, name);
		for (int i = 0; i < cnt && hit && gen != own && *first < 0; i++)
			if (!strcasecmp(group ? gen->groups[i].name : gen->metrics[i].name, name))
				*first = at + i;
		if (hit && gen != own) {
			size_t l = strlen(buf);
			snprintf(buf + l, len - l, "%s%s", n ? " or " : "", gen->title);
			n++;
		}
		at += cnt;
	}
	return n;
}

/* Is event (its name before the first ':') in a box type of gen named box? */
static int gen_has_event(const struct pmon_generation *gen, const char *box, const char *event)
{
	size_t l = strcspn(event, ":");
	for (int b = 0; b < *gen->nboxes; b++) {
		const struct pmon_box_type *t = gen->boxes[b];
		if (strcmp(t->name, box))
			continue;
		for (const struct pmon_event *e = t->events; e && e->name; e++)
			if (strlen(e->name) == l && !strncmp(e->name, event, l))
				return 1;
	}
	return 0;
}

/* The box type of gen that has event, NULL if none. */
static const char *gen_box_with(const struct pmon_generation *gen, const char *event)
{
	for (int b = 0; b < *gen->nboxes; b++)
		if (gen_has_event(gen, gen->boxes[b]->name, event))
			return gen->boxes[b]->name;
	return NULL;
}

int pmon_machine_metric_find(const pmon_machine_t *m, const char *name, char *why, size_t whylen)
{
	if (!m || !m->gen || !name)
		return pmon_why(why, whylen, PMON_EINVAL, "metric look-up: no machine or no name");
	int at = 0;
	for (int g = 0; g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		if (gen == m->gen)
			for (int i = 0; i < *gen->nmetrics; i++)
				if (!strcasecmp(gen->metrics[i].name, name))
					return at + i;
		at += *gen->nmetrics;
	}
	char gens[160];
	int first;
	if (!others_with(m->gen, name, 0, gens, sizeof(gens), &first))
		return pmon_why(why, whylen, PMON_ENOEVNT, "unknown metric '%s' (pmon list --metrics "
				"lists them)", name);
	/* what of it this machine's uncore lacks: the first event whose box
	 * type it has not, or which no box of the type has */
	const struct pmon_metric_def *d = metric_def(first);
	for (int k = 0; k < nevents(d); k++) {
		const struct pmon_metric_ev *e = &d->ev[k];
		const char *own = gen_box_with(m->gen, e->event);
		if (own)
			continue;
		return pmon_why(why, whylen, PMON_ENODEV, "%s is a metric of %s only: its event %s is not "
				"in this machine's %s uncore (pmon list --metrics %s lists this machine's)",
				d->name, gens, e->event, m->gen->title, m->gen->name);
	}
	return pmon_why(why, whylen, PMON_ENODEV, "%s is a metric of %s only, not of this machine's %s "
			"(pmon list --metrics %s lists this machine's)", d->name, gens, m->gen->title,
			m->gen->name);
}

int pmon_machine_metric_group_find(const pmon_machine_t *m, const char *name, char *why,
				   size_t whylen)
{
	if (!m || !m->gen || !name)
		return pmon_why(why, whylen, PMON_EINVAL, "group look-up: no machine or no name");
	int at = 0;
	for (int g = 0; g < pmon_generation_count(); g++) {
		const struct pmon_generation *gen = pmon_generation_at(g);
		if (gen == m->gen)
			for (int i = 0; i < *gen->ngroups; i++)
				if (!strcasecmp(gen->groups[i].name, name))
					return at + i;
		at += *gen->ngroups;
	}
	char gens[160];
	int first;
	if (!others_with(m->gen, name, 1, gens, sizeof(gens), &first))
		return pmon_why(why, whylen, PMON_ENOEVNT, "unknown metric group '%s' (pmon list "
				"--metrics lists them)", name);
	return pmon_why(why, whylen, PMON_ENODEV, "%s is a metric group of %s only, not of this "
			"machine's %s (pmon list --metrics %s lists this machine's)", group_def(first)->name,
			gens, m->gen->title, m->gen->name);
}

int pmon_metric_event_name(int metric, int k, int pmu, int socket, unsigned local_nodes,
			   unsigned all_nodes, char *buf, size_t len)
{
	const struct pmon_metric_def *d = metric_def(metric);
	pmon_pmu_info_t pi;
	if (!d || k < 0 || k >= nevents(d))
		return PMON_ERANGE;
	const struct pmon_metric_ev *e = &d->ev[k];
	if (!buf || socket < 0 || pmon_pmu_get(pmu, &pi) || strcmp(pi.box_type, e->box))
		return PMON_EINVAL;
	char nf[32] = "";
	unsigned mask = 0;
	switch (e->nodes) {
	case PMON_METRIC_NODES_LOCAL: mask = local_nodes; break;
	case PMON_METRIC_NODES_REMOTE: mask = all_nodes & ~local_nodes; break;
	case PMON_METRIC_NODES_ALL: mask = all_nodes; break;
	default: break;
	}
	if (e->nodes != PMON_METRIC_NODES_NONE) {
		if (!mask || mask > 0xff)     /* no node to count, or not a CBo node mask */
			return PMON_ERANGE;
		snprintf(nf, sizeof(nf), ":nf=0x%x", mask);
	}
	int n = snprintf(buf, len, "%s::%s%s:socket=%d", pi.name, e->event, nf, socket);
	return n < 0 || (size_t)n >= len ? PMON_ERANGE : PMON_OK;
}

/* ------------------------------------------------------------ formulas */

struct parser {
	const char *s, *start;
	const char *const *names;
	const double *values;
	int n;
	int nodiv;                 /* a division by zero was met */
	char *err;
	size_t errlen;
	int rc;
};

static void skip(struct parser *p)
{
	while (isspace((unsigned char)*p->s))
		p->s++;
}

static double expr(struct parser *p);

static double fail(struct parser *p, const char *what)
{
	if (!p->rc)
		p->rc = pmon_why(p->err, p->errlen, PMON_EINVAL, "formula '%s': %s at offset %d", p->start,
				 what, (int)(p->s - p->start));
	return 0;
}

static double factor(struct parser *p)
{
	skip(p);
	if (*p->s == '(') {
		p->s++;
		double v = expr(p);
		skip(p);
		if (*p->s != ')')
			return fail(p, "')' expected");
		p->s++;
		return v;
	}
	if (*p->s == '-') {
		p->s++;
		return -factor(p);
	}
	if (isdigit((unsigned char)*p->s) || *p->s == '.') {
		char *end;
		double v = strtod(p->s, &end);
		if (end == p->s)
			return fail(p, "bad number");
		p->s = end;
		return v;
	}
	if (isalpha((unsigned char)*p->s) || *p->s == '_') {
		const char *b = p->s;
		while (isalnum((unsigned char)*p->s) || *p->s == '_')
			p->s++;
		size_t l = (size_t)(p->s - b);
		for (int i = 0; i < p->n; i++)
			if (p->names[i] && strlen(p->names[i]) == l && !strncmp(p->names[i], b, l))
				return p->values[i];
		if (!p->rc)
			p->rc = pmon_why(p->err, p->errlen, PMON_EINVAL, "formula '%s': unknown name '%.*s'",
					 p->start, (int)l, b);
		return 0;
	}
	return fail(p, *p->s ? "number, name or '(' expected" : "unexpected end");
}

static double term(struct parser *p)
{
	double v = factor(p);
	for (;;) {
		skip(p);
		char op = *p->s;
		if (op != '*' && op != '/')
			return v;
		p->s++;
		double r = factor(p);
		if (op == '*')
			v *= r;
		else if (r == 0)
			p->nodiv = 1, v = 0;
		else
			v /= r;
	}
}

static double expr(struct parser *p)
{
	double v = term(p);
	for (;;) {
		skip(p);
		char op = *p->s;
		if (op != '+' && op != '-')
			return v;
		p->s++;
		double r = term(p);
		v = op == '+' ? v + r : v - r;
	}
}

int pmon_metric_eval(const char *formula, const char *const *names, const double *values, int n,
		     double *out, char *err, size_t errlen)
{
	if (!formula || !out || n < 0 || (n && (!names || !values)))
		return pmon_why(err, errlen, PMON_EINVAL, "formula: bad argument");
	struct parser p = { formula, formula, names, values, n, 0, err, errlen, 0 };
	double v = expr(&p);
	skip(&p);
	if (!p.rc && *p.s)
		fail(&p, "operator expected");
	*out = 0;
	if (p.rc)
		return p.rc;
	if (p.nodiv || !isfinite(v))
		return pmon_why(err, errlen, PMON_ERANGE, "no value (a division by zero)");
	*out = v;
	return PMON_OK;
}

int pmon_metric_compute(int metric, const double *counts, double seconds, double *out)
{
	const struct pmon_metric_def *d = metric_def(metric);
	if (!d || !out || !counts)
		return PMON_EINVAL;
	const char *names[PMON_METRIC_MAX_EVENTS + 1];
	double values[PMON_METRIC_MAX_EVENTS + 1];
	int n = nevents(d);
	for (int k = 0; k < n; k++) {
		names[k] = d->ev[k].label;
		values[k] = counts[k];
	}
	names[n] = "SECONDS";
	values[n] = seconds;
	return pmon_metric_eval(d->formula, names, values, n + 1, out, NULL, 0);
}
