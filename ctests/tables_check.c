/*
 * tables_check.c - lookups into the box tables for the table tests
 * (tables_check.h).
 */
#include <stdint.h>
#include <string.h>

#include "tables_check.h"

int tc_count_events(const struct pmon_box_type *t)
{
	int n = 0;
	while (t->events[n].name)
		n++;
	return n;
}

const struct pmon_event *tc_find_event(const struct pmon_box_type *t, const char *name)
{
	for (const struct pmon_event *e = t->events; e->name; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

const struct pmon_umask *tc_find_umask(const struct pmon_event *e, const char *name)
{
	for (int i = 0; e && i < e->numasks; i++)
		if (!strcmp(e->umasks[i].name, name))
			return &e->umasks[i];
	return NULL;
}

const struct pmon_umask *tc_umask_of(const struct pmon_box_type *t, const char *ev, const char *um)
{
	return tc_find_umask(tc_find_event(t, ev), um);
}

int tc_field_index(const struct pmon_box_type *t, const char *name)
{
	for (int f = 0; f < t->nfields; f++)
		if (!strcmp(t->fields[f].name, name))
			return f;
	return -1;
}

int tc_mod_index(const struct pmon_box_type *t, const char *name)
{
	for (int m = 0; m < t->nmods; m++)
		if (!strcmp(t->mods[m].name, name))
			return m;
	return -1;
}

int tc_resolve_mod(const struct pmon_box_type *t, const struct pmon_event *e, const char *name)
{
	int found = -1;
	for (int i = 0; i < t->nmods; i++) {
		const struct pmon_modifier *m = &t->mods[i];
		if (strcmp(m->name, name))
			continue;
		int on = (e->mods >> i) & 1;
		if (!on && m->kind != PMON_MOD_CTL)
			on = m->field == PMON_FIELD_EVENT ? e->fields != 0 :
			     m->field < 32 && (int)((e->fields >> m->field) & 1);
		if (!on)
			continue;
		if (found >= 0)
			return -2;
		found = i;
	}
	return found;
}

uint64_t tc_field_bits(const struct pmon_filter_field *f)
{
	uint64_t m = f->width >= 64 ? ~0ull : ((1ull << f->width) - 1);
	return f->shift >= 64 ? 0 : m << f->shift;
}

uint64_t tc_fields_mask(const struct pmon_box_type *t, uint32_t fields, int word)
{
	uint64_t m = 0;
	for (int f = 0; f < t->nfields && f < 32; f++)
		if ((fields & (1u << f)) && t->fields[f].word == word)
			m |= tc_field_bits(&t->fields[f]);
	return m;
}

uint64_t tc_valid_bits(const struct pmon_box_type *t, int word)
{
	uint64_t v = 0;
	for (int r = 0; r < t->nfregs; r++)
		if (t->fregs[r].word == word)
			v |= t->fregs[r].valid;
	return v;
}

void tc_default_encoding(const struct pmon_event *e, uint64_t *ctl, uint64_t filt[2])
{
	uint64_t um = 0;
	filt[0] = filt[1] = 0;
	for (int u = 0; u < e->numasks; u++)
		if (e->umasks[u].flags & PMON_UM_DEFAULT) {
			um |= e->umasks[u].value;
			filt[0] |= e->umasks[u].filt_set[0];
			filt[1] |= e->umasks[u].filt_set[1];
		}
	*ctl = (e->flags & PMON_EV_FIXED) ? 0 :
	       e->code | ((uint64_t)e->ext << 21) |
	       (um << ((e->flags & PMON_EV_OCC) ? PMON_PCU_OCC_SEL_SHIFT : PMON_CTL_UMASK_SHIFT));
}

int tc_one_line(const char *s, int max)
{
	return s && s[0] && !strchr(s, '\n') && strlen(s) <= (size_t)max;
}

int tc_lowest_bit(uint32_t v)
{
	for (int i = 0; i < 32; i++)
		if ((v >> i) & 1)
			return i;
	return -1;
}

int tc_in_list(const char *const *list, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return 1;
	return 0;
}
