/* generation.c - the registry of uncore generations (generation.h). */
#include <stdio.h>
#include <string.h>

#include "generation.h"
#include "why.h"

extern const struct pmon_generation pmon_gen_snbep, pmon_gen_nhm, pmon_gen_wsm;

/* The first is the default. */
static const struct pmon_generation *const gens[] = {
	&pmon_gen_snbep,
	&pmon_gen_nhm,
	&pmon_gen_wsm,
};

int pmon_generation_count(void)
{
	return PMON_ARRAY_SIZE(gens);
}

const struct pmon_generation *pmon_generation_at(int i)
{
	return i >= 0 && i < PMON_ARRAY_SIZE(gens) ? gens[i] : NULL;
}

const struct pmon_generation *pmon_generation_for(const char *vendor, unsigned family,
						  unsigned model)
{
	if (!vendor || strcmp(vendor, "GenuineIntel"))
		return NULL;
	for (int g = 0; g < PMON_ARRAY_SIZE(gens); g++)
		for (const unsigned *m = gens[g]->models; gens[g]->family == family && *m; m++)
			if (*m == model)
				return gens[g];
	return NULL;
}

int pmon_generation_refused(const char *vendor, unsigned family, unsigned model, char *buf,
			    size_t len)
{
	if (!vendor || strcmp(vendor, "GenuineIntel"))
		return 0;
	for (int g = 0; g < PMON_ARRAY_SIZE(gens); g++)
		for (const struct pmon_cpu_refused *r = gens[g]->refused;
		     gens[g]->family == family && r && r->model; r++)
			if (r->model == model) {
				snprintf(buf, len, "%s: %s", r->cpu, gens[g]->refused_why);
				return 1;
			}
	return 0;
}

void pmon_generation_cpus(char *buf, size_t len)
{
	if (len)
		buf[0] = 0;
	for (int g = 0; g < PMON_ARRAY_SIZE(gens); g++)
		pmon_why_add(buf, len, " or ", "%s", gens[g]->cpu);
}
