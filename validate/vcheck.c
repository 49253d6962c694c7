/*
 * vcheck.c - evaluating and keeping validation checks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vcheck.h"

static struct vcheck *vcheck_new(struct vchecks *cs, const char *kernel, const char *event,
				 const char *unit, const char *why)
{
	if (cs->n == cs->cap) {
		size_t cap = cs->cap ? cs->cap * 2 : 64;
		struct vcheck *v = realloc(cs->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		cs->v = v;
		cs->cap = cap;
	}
	struct vcheck *c = &cs->v[cs->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->kernel, sizeof(c->kernel), "%s", kernel);
	snprintf(c->event, sizeof(c->event), "%s", event);
	snprintf(c->unit, sizeof(c->unit), "%s", unit);
	snprintf(c->why, sizeof(c->why), "%s", why);
	c->per = 1;
	return c;
}

struct vcheck *vcheck_rel(struct vchecks *cs, const char *kernel, const char *event,
			  const char *unit, double expected, double measured,
			  double lo, double hi, const char *why)
{
	struct vcheck *c = vcheck_new(cs, kernel, event, unit, why);
	if (!c)
		return NULL;
	c->tol_kind = VTOL_REL;
	c->expected = expected;
	c->measured = measured;
	c->lo = lo;
	c->hi = hi;
	vcheck_eval(c);
	return c;
}

struct vcheck *vcheck_abs(struct vchecks *cs, const char *kernel, const char *event,
			  const char *unit, double measured, double bound, const char *why)
{
	struct vcheck *c = vcheck_new(cs, kernel, event, unit, why);
	if (!c)
		return NULL;
	c->tol_kind = VTOL_ABS;
	c->expected = 0;
	c->measured = measured;
	c->lo = 0;
	c->hi = bound;
	vcheck_eval(c);
	return c;
}

void vcheck_eval(struct vcheck *c)
{
	if (c->refused) {
		c->pass = 0;
		return;
	}
	/* The idle baseline's spread widens the band (vbase.h). */
	double w = c->bg_spread > 0 ? c->bg_spread : 0;
	if (c->tol_kind == VTOL_ABS) {
		c->pass = isfinite(c->measured) && c->measured >= -w && c->measured <= c->hi + w;
		return;
	}
	double r = vcheck_ratio(c), wr = c->expected ? w / fabs(c->expected) : 0;
	c->pass = isfinite(r) && r >= c->lo - wr && r <= c->hi + wr;
}

double vcheck_ratio(const struct vcheck *c)
{
	if (c->tol_kind == VTOL_ABS || c->expected == 0)
		return NAN;
	return c->measured / c->expected;
}

size_t vchecks_failed(const struct vchecks *cs)
{
	size_t n = 0;
	for (size_t i = 0; i < cs->n; i++)
		n += !cs->v[i].pass && !cs->v[i].known;
	return n;
}

size_t vchecks_known(const struct vchecks *cs)
{
	size_t n = 0;
	for (size_t i = 0; i < cs->n; i++)
		n += !cs->v[i].pass && cs->v[i].known;
	return n;
}

const char *vcheck_result(const struct vcheck *c)
{
	return c->pass ? "PASS" : c->known ? "KNOWN" : "FAIL";
}

void vcheck_refuse(struct vcheck *c, const char *why)
{
	if (!c->refused)
		c->refused = strdup(why);
	c->measured = NAN;
	c->pass = 0;
}

int vcheck_set_events(struct vcheck *c, const char *const *names, int n)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	char *s = malloc(len), *p = s;
	if (!s)
		return -1;
	*p = 0;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(names[i]);
		if (i)
			*p++ = ';';
		memcpy(p, names[i], l + 1);
		p += l;
	}
	free(c->events);
	c->events = s;
	return 0;
}

void vchecks_free(struct vchecks *cs)
{
	for (size_t i = 0; i < cs->n; i++) {
		free(cs->v[i].events);
		free(cs->v[i].refused);
		free(cs->v[i].counts);
		free(cs->v[i].known);
		for (int r = 0; r < cs->v[i].nruns; r++) {
			free(cs->v[i].runs[r].counts);
			free(cs->v[i].runs[r].refused);
		}
		free(cs->v[i].runs);
	}
	free(cs->v);
	memset(cs, 0, sizeof(*cs));
}

static void pct(char *buf, size_t len, double x)
{
	double p = x * 100;
	if (fabs(p - round(p)) < 1e-9)
		snprintf(buf, len, "%.0f%%", p);
	else if (fabs(p * 10 - round(p * 10)) < 1e-9)
		snprintf(buf, len, "%.1f%%", p);
	else
		snprintf(buf, len, "%.2f%%", p);
}

void vcheck_tol_text(const struct vcheck *c, char *buf, size_t len)
{
	char a[24], b[24];

	if (c->tol_kind == VTOL_ABS) {
		snprintf(buf, len, "<= %g", c->hi);
		return;
	}
	if (isinf(c->hi)) {
		pct(a, sizeof(a), 1 - c->lo);
		snprintf(buf, len, "at least -%s", a);
		return;
	}
	if (c->lo == 1 && c->hi == 1) {
		snprintf(buf, len, "exact");
		return;
	}
	pct(a, sizeof(a), 1 - c->lo);
	pct(b, sizeof(b), c->hi - 1);
	if (strcmp(a, b) == 0)
		snprintf(buf, len, "±%s", a);
	else
		snprintf(buf, len, "-%s/+%s", a, b);
}
