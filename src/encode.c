/*
 * encode.c - parse an event name and encode it from the declarative tables.
 *
 *   [pmon:::]PMU::EVENT[:UMASK]...[:MOD=VALUE]...[:socket=N|:cpu=N]
 *
 * Names are case-insensitive.  The rules that combine umasks, filter fields
 * and modifiers are the ones documented in tables.h.  No register is touched.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmon/pmon.h"
#include "catalog.h"
#include "encode.h"
#include "why.h"

#define MAX_ATTRS 32

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	unsigned long long x = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*v = x;
	return 0;
}

/* The field index a filter modifier targets for this event, or -1. */
static int mod_field(const struct pmon_box_type *t, const struct pmon_event *ev,
		     const struct pmon_modifier *m)
{
	if (m->kind == PMON_MOD_CTL)
		return -1;
	if (m->field != PMON_FIELD_EVENT)
		return m->field < t->nfields ? m->field : -1;
	for (int f = 0; f < t->nfields; f++)
		if (ev->fields & (1u << f))
			return f;
	return -1;
}

static void list_umasks(const struct pmon_event *ev, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int u = 0; u < ev->numasks && n + 1 < len; u++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", u ? ", " : "", ev->umasks[u].name);
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* The filter word an offcore event's response bits go to (its rsp field's). */
static int offcore_word(const struct pmon_box_type *t, const struct pmon_event *ev)
{
	for (int f = 0; f < t->nfields; f++)
		if (ev->fields & (1u << f))
			return t->fields[f].word;
	return 0;
}

struct encode_state {
	const struct pmon_pmu *pmu;
	const struct pmon_event *ev;
	uint64_t um_chosen;        /* bit u: umask u applied */
	uint32_t grp_given;        /* bit g: a umask of group g was named */
	uint64_t mod_given;        /* bit m: box modifier m given */
	uint64_t mod_val[64];
	int socket, cpu;
};

/* Resolve "name" among the box modifiers this event accepts; among entries of
 * one name the first accepted one wins (PCU occupancy events use their own
 * e/i entries). */
static int find_mod(const struct pmon_box_type *t, const struct pmon_event *ev,
		    uint32_t need, const char *name, int *exists)
{
	*exists = 0;
	for (int m = 0; m < t->nmods; m++) {
		const struct pmon_modifier *md = &t->mods[m];
		if (strcasecmp(md->name, name))
			continue;
		*exists = 1;
		if (ev->flags & PMON_EV_FIXED)
			continue;
		if (ev->mods & (1u << m))
			return m;
		int f = mod_field(t, ev, md);
		if (md->kind != PMON_MOD_CTL && f >= 0 && (need & (1u << f)))
			return m;
	}
	return -1;
}

static uint32_t chosen_fields(const struct encode_state *st)
{
	uint32_t need = st->ev->fields;
	for (int u = 0; u < st->ev->numasks; u++)
		if (st->um_chosen & (1ull << u))
			need |= st->ev->umasks[u].fields;
	return need;
}

int pmon_encode_pmu(int pmu_idx, const char *evname, char **attrs, int nattrs,
		    int nsockets, int ncpus, pmon_encoding_t *out, char *err, size_t errlen)
{
	struct encode_state st;
	memset(&st, 0, sizeof(st));
	st.socket = -1;
	st.cpu = -1;
	st.pmu = pmon_catalog_pmu(pmu_idx);
	const struct pmon_box_type *t = st.pmu->type;
	char umlist[512];

	int e = pmon_catalog_event(st.pmu, evname);
	if (e < 0)
		return pmon_why(err, errlen, PMON_ENOEVNT, "unknown event '%s' for PMU %s",
			    evname, st.pmu->name);
	st.ev = &t->events[e];
	const struct pmon_event *ev = st.ev;
	int is_core = t->space == PMON_SPACE_CORE;

	/* pass 1: umasks and qualifiers; modifiers are resolved once the umasks
	 * (and so the filter fields needed) are known */
	const char *modname[MAX_ATTRS];
	const char *modval[MAX_ATTRS];
	int nmods = 0;
	for (int a = 0; a < nattrs; a++) {
		char *eq = strchr(attrs[a], '=');
		if (!attrs[a][0])
			return pmon_why(err, errlen, PMON_EQUAL, "empty attribute in '%s' (doubled ':'?)",
				    evname);
		if (eq) {
			*eq = 0;
			const char *name = attrs[a], *val = eq + 1;
			if (!name[0])
				return pmon_why(err, errlen, PMON_EQUAL, "modifier with no name ('=%s')", val);
			if (!val[0])
				return pmon_why(err, errlen, PMON_EQUAL, "modifier '%s=' has no value", name);
			uint64_t v;
			if (!strcasecmp(name, "socket") || !strcasecmp(name, "cpu")) {
				int is_sock = !strcasecmp(name, "socket");
				if (parse_u64(val, &v))
					return pmon_why(err, errlen, PMON_EQUAL,
						    "malformed value '%s' for %s= (expected a number)", val, name);
				if (is_sock && is_core)
					return pmon_why(err, errlen, PMON_EQUAL,
						    "%s counts per CPU: use cpu=N, not socket=", st.pmu->name);
				if (st.socket >= 0 || st.cpu >= 0)
					return pmon_why(err, errlen, PMON_EQUAL,
						    "socket=/cpu= given more than once");
				if (is_sock) {
					if ((nsockets > 0 && v >= (uint64_t)nsockets) || v > 7)
						return pmon_why(err, errlen, PMON_ERANGE,
							    "socket=%s out of range: this machine has %d socket%s (0-%d)",
							    val, nsockets > 0 ? nsockets : 8,
							    nsockets == 1 ? "" : "s", (nsockets > 0 ? nsockets : 8) - 1);
					st.socket = (int)v;
				} else {
					if ((ncpus > 0 && v >= (uint64_t)ncpus) || v > 4095)
						return pmon_why(err, errlen, PMON_ERANGE,
							    "cpu=%s out of range: this machine has %d CPUs (0-%d)",
							    val, ncpus > 0 ? ncpus : 4096, (ncpus > 0 ? ncpus : 4096) - 1);
					st.cpu = (int)v;
				}
				continue;
			}
			if (nmods >= MAX_ATTRS)
				return pmon_why(err, errlen, PMON_EQUAL, "too many modifiers");
			modname[nmods] = name;
			modval[nmods++] = val;
			continue;
		}
		/* a umask */
		int found = -1;
		for (int u = 0; u < ev->numasks; u++)
			if (!strcasecmp(ev->umasks[u].name, attrs[a])) {
				found = u;
				break;
			}
		if (found < 0) {
			int exists;
			if (find_mod(t, ev, 0, attrs[a], &exists) >= 0 || exists)
				return pmon_why(err, errlen, PMON_EQUAL,
					    "modifier '%s' needs a value ('%s=N')", attrs[a], attrs[a]);
			if (!ev->numasks)
				return pmon_why(err, errlen, PMON_EUMASK,
					    "event %s takes no umask, but '%s' was given", ev->name, attrs[a]);
			list_umasks(ev, umlist, sizeof(umlist));
			return pmon_why(err, errlen, PMON_EUMASK,
				    "umask '%s' is not valid for %s (valid: %s)", attrs[a], ev->name, umlist);
		}
		if (st.um_chosen & (1ull << found))
			return pmon_why(err, errlen, PMON_EUMASK, "umask %s given twice", ev->umasks[found].name);
		st.um_chosen |= 1ull << found;
		st.grp_given |= 1u << ev->umasks[found].grp;
	}

	/* exclusivity inside a group */
	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *um = &ev->umasks[u];
		if (!(st.um_chosen & (1ull << u)) || !(um->flags & PMON_UM_EXCL))
			continue;
		for (int w = 0; w < ev->numasks; w++)
			if (w != u && (st.um_chosen & (1ull << w)) && ev->umasks[w].grp == um->grp)
				return pmon_why(err, errlen, PMON_EUMASK,
					    "umask %s of %s cannot be combined with %s",
					    um->name, ev->name, ev->umasks[w].name);
	}
	/* defaults for groups nothing was named in */
	for (int u = 0; u < ev->numasks; u++) {
		const struct pmon_umask *um = &ev->umasks[u];
		if ((um->flags & PMON_UM_DEFAULT) && !(st.grp_given & (1u << um->grp)))
			st.um_chosen |= 1ull << u;
	}
	uint32_t need_grps = ev->need_grps | ((ev->flags & PMON_EV_NEED_UM) ? 1u : 0);
	for (int g = 0; g < 8; g++) {
		if (!(need_grps & (1u << g)))
			continue;
		int have = 0;
		for (int u = 0; u < ev->numasks; u++)
			if ((st.um_chosen & (1ull << u)) && ev->umasks[u].grp == g)
				have = 1;
		if (!have) {
			size_t n = 0;
			umlist[0] = 0;
			for (int u = 0; u < ev->numasks && n + 1 < sizeof(umlist); u++)
				if (ev->umasks[u].grp == g)
					n += (size_t)snprintf(umlist + n, sizeof(umlist) - n, "%s%s",
							      n ? ", " : "", ev->umasks[u].name);
			return pmon_why(err, errlen, PMON_EUMASK, "%s needs a umask%s from: %s", ev->name,
				    (ev->flags & PMON_EV_OFFCORE) ? (g == 0 ? " (request)" : g == 1 ? " (response)" : "") : "",
				    umlist);
		}
	}

	/* control word and filter words */
	memset(out, 0, sizeof(*out));
	uint64_t ctl = 0, umask = 0, filt[PMON_FILTER_WORDS] = { 0 };
	uint32_t filled = 0;         /* fields that received a value */
	for (int u = 0; u < ev->numasks; u++) {
		if (!(st.um_chosen & (1ull << u)))
			continue;
		const struct pmon_umask *um = &ev->umasks[u];
		if (ev->flags & PMON_EV_OFFCORE)
			filt[offcore_word(t, ev)] |= um->value;
		else
			umask |= um->value;
		filt[0] |= um->filt_set[0];
		filt[1] |= um->filt_set[1];
		for (int f = 0; f < t->nfields; f++) {
			const struct pmon_filter_field *fd = &t->fields[f];
			if (fd->word < 2 && (um->filt_set[fd->word] & (pmon_bits(fd->width) << fd->shift)))
				filled |= 1u << f;
		}
	}
	if (ev->flags & PMON_EV_FIXED) {
		if (nmods)
			return pmon_why(err, errlen, PMON_EQUAL,
				    "%s counts on the fixed counter and takes no modifier ('%s' given)",
				    ev->name, modname[0]);
	} else if (ev->flags & PMON_EV_OFFCORE) {
		ctl = ev->code | (1u << PMON_CTL_UMASK_SHIFT) | PMON_CORE_USR | PMON_CORE_OS;
		filled |= ev->fields;
	} else {
		ctl = ev->code | (ev->ext ? PMON_CTL_EV_SEL_EXT : 0);
		if (ev->flags & PMON_EV_OCC)
			ctl |= umask << PMON_PCU_OCC_SEL_SHIFT;
		else
			ctl |= umask << PMON_CTL_UMASK_SHIFT;
	}

	uint32_t need = chosen_fields(&st);
	for (int i = 0; i < nmods; i++) {
		int exists;
		int m = find_mod(t, ev, need, modname[i], &exists);
		if (m < 0) {
			if (!exists)
				return pmon_why(err, errlen, PMON_EQUAL, "unknown modifier '%s' for %s",
					    modname[i], st.pmu->name);
			return pmon_why(err, errlen, PMON_EQUAL, "modifier '%s' does not apply to %s%s",
				    modname[i], ev->name,
				    t->mods[0].kind == PMON_MOD_CTL && ev->numasks ?
				    " with the umasks given" : "");
		}
		const struct pmon_modifier *md = &t->mods[m];
		if (st.mod_given & (1ull << m))
			return pmon_why(err, errlen, PMON_EQUAL, "modifier '%s' given twice", md->name);
		uint64_t v;
		if (parse_u64(modval[i], &v))
			return pmon_why(err, errlen, PMON_EQUAL, "malformed value '%s' for %s= (expected a number)",
				    modval[i], md->name);
		if (md->kind != PMON_MOD_ADDR && (v < md->min || v > md->max))
			return pmon_why(err, errlen, PMON_ERANGE, "%s=%s out of range %llu-%llu for %s",
				    md->name, modval[i], (unsigned long long)md->min,
				    (unsigned long long)md->max, ev->name);
		st.mod_given |= 1ull << m;
		st.mod_val[m] = v;
		if (md->kind == PMON_MOD_CTL) {
			if (v > pmon_bits(md->width))
				return pmon_why(err, errlen, PMON_ERANGE, "%s=%s does not fit %u bits",
					    md->name, modval[i], md->width);
			ctl |= v << md->shift;
			continue;
		}
		int f = mod_field(t, ev, md);
		const struct pmon_filter_field *fd = &t->fields[f];
		if (md->kind == PMON_MOD_ADDR) {
			uint64_t keep = pmon_bits(fd->width) << fd->shift;
			if (v > md->max || (v & ~(keep | pmon_bits(fd->shift))))
				return pmon_why(err, errlen, PMON_ERANGE,
					    "%s=%s outside the matchable address range (max 0x%llx)",
					    md->name, modval[i], (unsigned long long)md->max);
			filt[fd->word] |= v & keep;
		} else {
			unsigned w = md->width ? md->width : fd->width;
			if (v > pmon_bits(w))
				return pmon_why(err, errlen, PMON_ERANGE, "%s=%s does not fit its %u-bit field %s",
					    md->name, modval[i], w, fd->name);
			filt[fd->word] |= v << (fd->shift + md->shift);
		}
		ctl |= md->ctl_also;
		filled |= 1u << f;
		need |= 1u << f;
	}
	uint32_t missing = need & ~filled;
	for (int f = 0; f < t->nfields; f++) {
		if (!(missing & (1u << f)))
			continue;
		const char *hint = NULL;
		for (int m = 0; m < t->nmods; m++) {
			const struct pmon_modifier *md = &t->mods[m];
			if (md->kind != PMON_MOD_CTL && mod_field(t, ev, md) == f) {
				hint = md->name;
				break;
			}
		}
		if (hint)
			return pmon_why(err, errlen, PMON_EQUAL, "%s needs a value for filter field %s: add :%s=N",
				    ev->name, t->fields[f].name, hint);
		return pmon_why(err, errlen, PMON_EQUAL, "%s needs a value for filter field %s",
			    ev->name, t->fields[f].name);
	}
	if (ctl & ~(uint64_t)t->ctl_valid && !(ev->flags & PMON_EV_OFFCORE))
		return pmon_why(err, errlen, PMON_EINVAL,
			    "internal table error: %s encodes reserved control bits 0x%llx",
			    ev->name, (unsigned long long)(ctl & ~(uint64_t)t->ctl_valid));
	for (int r = 0; r < t->nfregs; r++) {
		const struct pmon_filter_reg *fr = &t->fregs[r];
		if (fr->word < PMON_FILTER_WORDS && (filt[fr->word] & ~fr->valid))
			return pmon_why(err, errlen, PMON_ERANGE, "%s: value 0x%llx sets reserved bits of %s",
				    ev->name, (unsigned long long)filt[fr->word], fr->name);
	}

	/* the canonical name */
	size_t n = (size_t)snprintf(out->name, sizeof(out->name), "%s::%s", st.pmu->name, ev->name);
	for (int u = 0; u < ev->numasks && n < sizeof(out->name); u++)
		if (st.um_chosen & (1ull << u))
			n += (size_t)snprintf(out->name + n, sizeof(out->name) - n, ":%s", ev->umasks[u].name);
	for (int m = 0; m < t->nmods && n < sizeof(out->name); m++)
		if (st.mod_given & (1ull << m))
			n += (size_t)snprintf(out->name + n, sizeof(out->name) - n,
					      t->mods[m].kind == PMON_MOD_ADDR ? ":%s=0x%llx" : ":%s=%llu",
					      t->mods[m].name, (unsigned long long)st.mod_val[m]);
	if (n >= sizeof(out->name))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	if (st.cpu >= 0)
		n += (size_t)snprintf(out->name + n, sizeof(out->name) - n, ":cpu=%d", st.cpu);
	else if (!is_core)
		n += (size_t)snprintf(out->name + n, sizeof(out->name) - n, ":socket=%d",
				      st.socket < 0 ? 0 : st.socket);
	if (n >= sizeof(out->name))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");

	if (is_core && st.cpu < 0)
		return pmon_why(err, errlen, PMON_EQUAL, "%s counts per CPU: add :cpu=N", st.pmu->name);

	/* An event that may program a whole-register matcher owns all of it: it
	 * writes every bit (unset fields as 0) and shares it only with events
	 * that want the identical setting. */
	for (int r = 0; r < t->nfregs; r++) {
		if (!t->fregs[r].whole)
			continue;
		uint32_t word_fields = 0;
		int reachable = 0;
		for (int f = 0; f < t->nfields; f++)
			if (t->fields[f].word == t->fregs[r].word)
				word_fields |= 1u << f;
		for (int md = 0; md < t->nmods; md++) {
			int f = t->mods[md].kind != PMON_MOD_CTL ? mod_field(t, ev, &t->mods[md]) : -1;
			if ((ev->mods & (1u << md)) && f >= 0 && (word_fields & (1u << f)))
				reachable = 1;
		}
		if (reachable || (need & word_fields))
			need |= word_fields;
	}

	out->pmu = pmu_idx;
	out->event = e;
	out->socket = is_core ? -1 : (st.cpu >= 0 ? -1 : (st.socket < 0 ? 0 : st.socket));
	out->cpu = st.cpu;
	out->fixed = (ev->flags & PMON_EV_FIXED) != 0;
	out->ctl = ctl;
	out->cntmask = ev->cntmask;
	memcpy(out->filt, filt, sizeof(filt));
	out->fields_used = need;
	for (int f = 0; f < t->nfields; f++)
		if (need & (1u << f))
			out->filt_used |= 1u << t->fields[f].word;
	return PMON_OK;
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
	if (strlen(name) >= sizeof(buf))
		return pmon_why(err, errlen, PMON_EINVAL, "event name too long");
	strcpy(buf, name);

	char *sep = strstr(buf, "::");
	if (!sep)
		return pmon_why(err, errlen, PMON_ENOEVNT,
			    "'%s' names no PMU: expected PMU::EVENT, e.g. snbep_unc_imc0::UNC_M_CAS_COUNT:RD",
			    name);
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
		return pmon_why(err, errlen, PMON_ENOEVNT, "unknown PMU '%s' (see 'pmon list')", pmu_name);
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
