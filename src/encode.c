/*
 * encode.c - parse an event name and encode it from the declarative tables.
 *
 *   [pmon:::]PMU::EVENT[:UMASK]...[:MOD=VALUE]...[:socket=N|:cpu=N]
 *
 * Names are case-insensitive.  The rules that combine umasks, filter fields
 * and modifiers are the ones documented in tables.h.  No register is touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "encode.h"
#include "encode_state.h"
#include "generation.h"
#include "parse.h"
#include "why.h"

/* socket=N or cpu=N. */
static int parse_qualifier(struct encode_state *st, const char *name, const char *val)
{
	int is_sock = !strcasecmp(name, "socket");
	uint64_t v;
	if (pmon_parse_u64(val, &v))
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"malformed value '%s' for %s= (expected a number)", val, name);
	if (is_sock && st->is_core)
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"%s counts per CPU: use cpu=N, not socket=", st->pmu_name);
	if (st->socket >= 0 || st->cpu >= 0)
		return pmon_why(st->err, st->errlen, PMON_EQUAL,
				"socket=/cpu= given more than once");
	int ns = st->nsockets, nc = st->ncpus;
	if (is_sock) {
		if (ns > 0 && v >= (uint64_t)ns)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"socket=%s out of range: this machine has %d socket%s (0-%d)",
					val, ns, ns == 1 ? "" : "s", ns - 1);
		if (v > 7)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"socket=%s out of range: pmon numbers sockets 0-7",
					val);
		st->socket = (int)v;
	} else {
		if (nc > 0 && v >= (uint64_t)nc)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"cpu=%s out of range: this machine has %d CPUs (0-%d)",
					val, nc, nc - 1);
		if (v > 4095)
			return pmon_why(st->err, st->errlen, PMON_ERANGE,
					"cpu=%s out of range: pmon numbers CPUs 0-4095", val);
		st->cpu = (int)v;
	}
	return PMON_OK;
}

/* Phase 1: the attributes: umasks and qualifiers now; modifiers are kept to
 * be resolved once the umasks (and so the filter fields needed) are known. */
static int parse_attrs(struct encode_state *st, const char *evname, char **attrs, int nattrs)
{
	int rc;
	for (int a = 0; a < nattrs; a++) {
		char *eq = strchr(attrs[a], '=');
		if (!attrs[a][0])
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"empty attribute in '%s' (doubled ':'?)", evname);
		if (!eq) {
			if ((rc = pmon_enc_parse_umask(st, attrs[a])))
				return rc;
			continue;
		}
		*eq = 0;
		const char *name = attrs[a], *val = eq + 1;
		if (!name[0])
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier with no name ('=%s')", val);
		if (!val[0])
			return pmon_why(st->err, st->errlen, PMON_EQUAL,
					"modifier '%s=' has no value", name);
		if (!strcasecmp(name, "socket") || !strcasecmp(name, "cpu")) {
			if ((rc = parse_qualifier(st, name, val)))
				return rc;
			continue;
		}
		if (st->nmods >= MAX_ATTRS)
			return pmon_why(st->err, st->errlen, PMON_EQUAL, "too many modifiers");
		st->modname[st->nmods] = name;
		st->modval[st->nmods++] = val;
	}
	return PMON_OK;
}

/* Phase 6: the canonical name: PMU::EVENT, the umasks and modifiers in table
 * order, then the socket (uncore) or CPU. */
static int canonical_name(const struct encode_state *st, char *name, size_t len)
{
	const struct pmon_event *ev = st->ev;
	const struct pmon_box_type *t = st->t;
	size_t n = (size_t)snprintf(name, len, "%s::%s", st->pmu_name, ev->name);
	for (int u = 0; u < ev->numasks && n < len; u++)
		if (st->um_chosen & (1ull << u))
			n += (size_t)snprintf(name + n, len - n, ":%s", ev->umasks[u].name);
	for (int m = 0; m < t->nmods && n < len; m++)
		if (st->mod_given & (1ull << m))
			n += (size_t)snprintf(name + n, len - n,
					      t->mods[m].kind == PMON_MOD_ADDR ? ":%s=0x%llx" : ":%s=%llu",
					      t->mods[m].name, (unsigned long long)st->mod_val[m]);
	if (n >= len)
		return pmon_why(st->err, st->errlen, PMON_EINVAL, "event name too long");
	if (st->cpu >= 0)
		n += (size_t)snprintf(name + n, len - n, ":cpu=%d", st->cpu);
	else if (!st->is_core)
		n += (size_t)snprintf(name + n, len - n, ":socket=%d", st->socket < 0 ? 0 : st->socket);
	if (n >= len)
		return pmon_why(st->err, st->errlen, PMON_EINVAL, "event name too long");
	if (st->is_core && st->cpu < 0)
		return pmon_why(st->err, st->errlen, PMON_EQUAL, "%s counts per CPU: add :cpu=N",
				st->pmu_name);
	return PMON_OK;
}

/* Phases 1-7 for one event name of box type t (st: pmu_name, bounds, err). */
static int encode_event(struct encode_state *st, int e, const char *evname, char **attrs,
			int nattrs, pmon_encoding_t *out)
{
	int rc;
	st->socket = -1;
	st->cpu = -1;
	st->is_core = st->t->space == PMON_SPACE_CORE;
	if (e < 0) {
		for (const struct pmon_excluded_event *x = st->t->excluded; x && x->name; x++)
			if (!strcasecmp(x->name, evname))
				return pmon_why(st->err, st->errlen, PMON_ENOEVNT,
						"%s is not offered for PMU %s: %s (a documented "
						"divergence: doc/divergences.md, \"Not in the E5-2600 "
						"guide\")",
						x->name, st->pmu_name, x->why);
		return pmon_why(st->err, st->errlen, PMON_ENOEVNT, "unknown event '%s' for PMU %s",
				evname, st->pmu_name);
	}
	st->ev = &st->t->events[e];
	if ((rc = parse_attrs(st, evname, attrs, nattrs)) || (rc = pmon_enc_umask_rules(st)))
		return rc;
	memset(out, 0, sizeof(*out));
	if ((rc = pmon_enc_umask_words(st)) || (rc = pmon_enc_apply_modifiers(st)) || (rc = pmon_enc_check_words(st)) ||
	    (rc = canonical_name(st, out->name, sizeof(out->name))))
		return rc;
	pmon_enc_own_whole_registers(st);

	out->event = e;
	out->socket = st->is_core ? -1 : (st->cpu >= 0 ? -1 : (st->socket < 0 ? 0 : st->socket));
	out->cpu = st->cpu;
	out->fixed = (st->ev->flags & PMON_EV_FIXED) != 0;
	out->ctl = st->ctl;
	out->cntmask = st->ev->cntmask;
	memcpy(out->filt, st->filt, sizeof(st->filt));
	out->fields_used = st->need;
	for (int f = 0; f < st->t->nfields; f++)
		if (st->need & (1u << f))
			out->filt_used |= 1u << st->t->fields[f].word;
	return PMON_OK;
}

int pmon_encode_pmu(int pmu_idx, const char *evname, char **attrs, int nattrs,
		    int nsockets, int ncpus, pmon_encoding_t *out, char *err, size_t errlen)
{
	struct encode_state st;
	memset(&st, 0, sizeof(st));
	const struct pmon_pmu *pmu = pmon_catalog_pmu(pmu_idx);
	st.pmu_name = pmu->name;
	st.t = pmu->type;
	st.nsockets = nsockets;
	st.ncpus = ncpus;
	st.err = err;
	st.errlen = errlen;
	int rc = encode_event(&st, pmon_catalog_event(pmu, evname), evname, attrs, nattrs, out);
	if (rc == PMON_OK)
		out->pmu = pmu_idx;
	return rc;
}

int pmon_encode_table(const struct pmon_box_type *t, const char *pmu_name, const char *evstr,
		      pmon_encoding_t *out, char *err, size_t errlen)
{
	char buf[PMON_MAX_NAME * 2];
	char *attrs[MAX_ATTRS];
	int nattrs = 0;
	struct encode_state st;

	if (err && errlen)
		err[0] = 0;
	if (!t || !pmu_name || !evstr || !out)
		return pmon_why(err, errlen, PMON_EINVAL, "no box type or event name");
	if (strlen(evstr) >= sizeof(buf))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	strcpy(buf, evstr);
	for (char *p = strchr(buf, ':'); p; p = strchr(p, ':')) {
		if (nattrs >= MAX_ATTRS)
			return pmon_why(err, errlen, PMON_EQUAL, "too many attributes");
		*p++ = 0;
		attrs[nattrs++] = p;
	}
	int e = pmon_box_event(t, buf);
	memset(&st, 0, sizeof(st));
	st.pmu_name = pmu_name;
	st.t = t;
	st.err = err;
	st.errlen = errlen;
	int rc = encode_event(&st, e, buf, attrs, nattrs, out);
	if (rc == PMON_OK)
		out->pmu = -1;
	return rc;
}

/* The box type of a pmon name "PMU::EVENT...", or NULL. */
static const struct pmon_box_type *type_of(const char *pmon_name)
{
	char pmu[64];
	snprintf(pmu, sizeof(pmu), "%.*s", (int)strcspn(pmon_name, ":"), pmon_name);
	const struct pmon_pmu *p = pmon_catalog_pmu(pmon_catalog_find(pmu));
	return p ? p->type : NULL;
}

int pmon_encode(const char *name, int nsockets, int ncpus, pmon_encoding_t *out,
		char *err, size_t errlen)
{
	char buf[PMON_MAX_NAME * 2];
	char *attrs[MAX_ATTRS];
	int nattrs = 0;

	if (err && errlen)
		err[0] = 0;
	if (!name || !out)
		return pmon_why(err, errlen, PMON_EINVAL, "no event name");
	if (!strncasecmp(name, "pmon:::", 7))
		name += 7;
	if (!strstr(name, "::")) {
		/* perf's or Intel's name: pmon's for it (names.c) */
		pmon_name_map_t map;
		int rc = pmon_name_map(name, &map, err, errlen);
		if (rc)
			return rc;
		if (map.form != PMON_FORM_PMON) {
			size_t pl = strcspn(map.pmon[0], ":");
			int gens = 0;
			for (int i = 1; i < map.ninstances; i++)
				gens |= type_of(map.pmon[i]) != type_of(map.pmon[0]);
			if (gens)
				return pmon_why(err, errlen, PMON_EINVAL,
						"'%s' is an event of several generations' PMUs (%.*s, ...): "
						"name the PMU (%s), or encode it on a machine, which "
						"counts with its own", name, (int)pl, map.pmon[0],
						map.pmon[0]);
			if (map.ninstances > 1)
				return pmon_why(err, errlen, PMON_EINVAL,
						"'%s' names every box of its kind (%d, %s ...), counted "
						"as their sum: count it with pmon_encode_all(), PAPI or "
						"pmon stat, or name one box", name, map.ninstances,
						map.pmon[0]);
			return pmon_encode(map.pmon[0], nsockets, ncpus, out, err, errlen);
		}
	}
	if (strlen(name) >= sizeof(buf))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	strcpy(buf, name);

	char *sep = strstr(buf, "::");
	if (!sep)
		return pmon_why(err, errlen, PMON_ENOEVNT,
			    "'%s' names no PMU: expected PMU::EVENT, e.g. %s",
			    name, pmon_generation_at(0)->example);
	*sep = 0;
	char *pmu_name = buf, *evname = sep + 2;
	int pmu = pmon_catalog_find(pmu_name);
	if (pmu < 0) {
		/* name the instances when only the number is wrong */
		int np;
		const struct pmon_pmu *pl = pmon_catalog(&np);
		for (int i = 0; i < np; i++) {
			size_t pl_len = strlen(pl[i].type->pmu_prefix);
			if (pl[i].type->max_boxes > 1 && !strncasecmp(pmu_name, pl[i].type->pmu_prefix, pl_len))
				return pmon_why(err, errlen, PMON_ENOEVNT,
					    "unknown box instance '%s': %s has instances 0-%d",
					    pmu_name, pl[i].type->pmu_prefix, pl[i].type->max_boxes - 1);
		}
		return pmon_why(err, errlen, PMON_ENOEVNT,
				"unknown PMU '%s' (see 'pmon list')", pmu_name);
	}
	char *colon = strchr(evname, ':');
	if (colon) {
		*colon = 0;
		char *p = colon + 1;
		for (;;) {
			if (nattrs >= MAX_ATTRS)
				return pmon_why(err, errlen, PMON_EQUAL, "too many attributes");
			attrs[nattrs++] = p;
			char *c = strchr(p, ':');
			if (!c)
				break;
			*c = 0;
			p = c + 1;
		}
	}
	if (!evname[0])
		return pmon_why(err, errlen, PMON_ENOEVNT, "no event name after '%s::'", pmu_name);
	return pmon_encode_pmu(pmu, evname, attrs, nattrs, nsockets, ncpus, out, err, errlen);
}

int pmon_encode_all(const char *name, int nsockets, int ncpus, pmon_encoding_t *out, int max,
		    char *err, size_t errlen)
{
	pmon_name_map_t *map = malloc(sizeof(*map));
	if (!map)
		return pmon_why(err, errlen, PMON_ENOMEM, "out of memory");
	int rc = pmon_name_map(name, map, err, errlen);
	if (!rc && (!out || max < map->ninstances))
		rc = pmon_why(err, errlen, PMON_EINVAL, "'%s' names %d boxes: room for %d encodings",
			      name, map->ninstances, max);
	for (int i = 0; !rc && i < map->ninstances; i++)
		rc = pmon_encode(map->pmon[i], nsockets, ncpus, &out[i], err, errlen);
	int n = map->ninstances;
	free(map);
	return rc ? rc : n;
}
