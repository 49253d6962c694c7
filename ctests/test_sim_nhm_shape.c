/*
 * test_sim_nhm_shape.c - the Nehalem-EP / Westmere-EP machines' shapes
 * (PMON_SIM="gen=nhm-ep,..."): their defaults, the ranges and the keys
 * refused for them, the CPU they identify as, and what they do not have
 * (no PCI boxes, no SNB-EP uncore MSRs).
 */
#include <string.h>

#include "sim_fixture.h"

/* spec fails to parse, with a message containing want. */
static void refused(const char *spec, const char *want)
{
	struct pmon_sim_shape sh;
	char err[256] = "";

	CHECK_EQ_INT(pmon_sim_shape_parse(spec, &sh, err, sizeof err), -1, spec);
	CHECK(strstr(err, want) != NULL, "%s: message '%s' lacks '%s'", spec, err, want);
}

static void defaults(void)
{
	struct pmon_sim_shape sh;
	char err[256];

	CHECK_EQ_INT(pmon_sim_shape_parse("gen=nhm-ep", &sh, err, sizeof err), 0, err);
	CHECK_EQ_INT(sh.gen, PMON_SIM_GEN_NHMEP, "gen");
	CHECK_EQ_INT(sh.sockets, 2, "nhm sockets");
	CHECK_EQ_INT(sh.cores, 4, "nhm cores");
	CHECK_EQ_INT(sh.threads, 2, "nhm threads");
	CHECK_EQ_INT(sh.channels, 3, "nhm channels");
	CHECK_EQ_U64(sh.llc_bytes, 8ull << 20, "nhm llc 8 MiB");
	CHECK_EQ_INT(sh.llc_ways, 16, "nhm llc 16 ways");
	CHECK_EQ_U64(sh.uclk_hz, 2660000000ull, "nhm uclk");
	CHECK_EQ_INT(sh.nt_erratum, 1, "erratum on by default, as silicon");
	CHECK_EQ_INT(pmon_sim_shape_parse("gen=wsm-ep", &sh, err, sizeof err), 0, err);
	CHECK_EQ_INT(sh.gen, PMON_SIM_GEN_WSMEP, "gen wsm");
	CHECK_EQ_INT(sh.cores, 6, "wsm cores");
	CHECK_EQ_U64(sh.llc_bytes, 12ull << 20, "wsm llc 12 MiB");
	CHECK_EQ_INT(sh.channels, 3, "wsm channels");
	/* gen sets the defaults wherever it stands; other keys still apply */
	CHECK_EQ_INT(pmon_sim_shape_parse("cores=2, gen = nhm-ep ,nt_erratum=off", &sh, err,
					  sizeof err), 0, err);
	CHECK_EQ_INT(sh.cores, 2, "cores before gen");
	CHECK_EQ_INT(sh.channels, 3, "gen's default kept");
	CHECK_EQ_INT(sh.nt_erratum, 0, "erratum off");
	CHECK_EQ_INT(pmon_sim_shape_parse("gen=snb-ep", &sh, err, sizeof err), 0, err);
	CHECK_EQ_INT(sh.gen, PMON_SIM_GEN_SNBEP, "snb-ep by name");
	CHECK_EQ_INT(sh.cores, 8, "snb-ep cores");
	CHECK_EQ_INT(sh.channels, 4, "snb-ep channels");
	CHECK_EQ_INT(pmon_sim_shape_parse("", &sh, err, sizeof err), 0, err);
	CHECK_EQ_INT(sh.gen, PMON_SIM_GEN_SNBEP, "the default is SNB-EP");
}

static void ranges(void)
{
	refused("gen=haswell", "bad value 'haswell' for gen");
	refused("gen=nhm-ep,cores=5", "cores=5 out of range 1..4 for gen=nhm-ep");
	refused("gen=wsm-ep,cores=7", "cores=7 out of range 1..6 for gen=wsm-ep");
	refused("gen=nhm-ep,channels=4", "channels=4 out of range 1..3");
	refused("gen=wsm-ep,sockets=4", "sockets=4 out of range 1..2");
	refused("gen=nhm-ep,cores=9", "cores=9 out of range 1..8");
	refused("gen=nhm-ep,pclk=800M", "pclk does not apply to gen=nhm-ep");
	refused("gen=wsm-ep,nodeids=1,0", "nodeids does not apply to gen=wsm-ep");
	refused("nt_erratum=on", "nt_erratum does not apply to gen=snb-ep");
	refused("gen=nhm-ep,nt_erratum=maybe", "bad value 'maybe' for nt_erratum");
	refused("gen=nhm-ep,gen=wsm-ep", "given twice");
}

static void identity(void)
{
	struct pmon_cpuid id;
	pmon_pci_addr_t d[4];
	char topo[64];

	machine("gen=nhm-ep");
	CHECK_EQ_INT(acc->ops->cpu_ident(acc, &id, op_why, sizeof op_why), 0, "ident");
	CHECK_EQ_INT(id.family, 6, "family");
	CHECK_EQ_INT(id.model, 26, "Nehalem-EP model");
	CHECK(strstr(id.brand, "X5570") != NULL, "brand %s", id.brand);
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3ce0, d, 4, op_why, sizeof op_why), 0,
		     "no SNB-EP UBox function");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3cb0, d, 4, op_why, sizeof op_why), 0,
		     "no SNB-EP iMC function");
	CHECK_EQ_INT(wrmsr(0, 0xC08, 0), PMON_EIO, "no SNB-EP UBox MSR");
	CHECK_EQ_INT(wrmsr(0, 0xD04, 0), PMON_EIO, "no SNB-EP CBo MSR");
	CHECK_EQ_INT(wrmsr(0, 0xC24, 0), PMON_EIO, "no SNB-EP PCU MSR");
	CHECK_EQ_INT(acc->ops->topology(acc, topo, sizeof topo), 0, "topology");
	CHECK(!strcmp(topo, "package:2 core:4 pu:2"), "topology %s", topo);
	machine("gen=wsm-ep");
	CHECK_EQ_INT(acc->ops->cpu_ident(acc, &id, op_why, sizeof op_why), 0, "ident");
	CHECK_EQ_INT(id.model, 44, "Westmere-EP model");
	CHECK_EQ_INT(acc->ops->topology(acc, topo, sizeof topo), 0, "topology");
	CHECK(!strcmp(topo, "package:2 core:6 pu:2"), "topology %s", topo);
	machine(NULL);
	CHECK_EQ_INT(acc->ops->cpu_ident(acc, &id, op_why, sizeof op_why), 0, "ident");
	CHECK_EQ_INT(id.model, 45, "SNB-EP model unchanged");
	CHECK_EQ_INT(acc->ops->pci_find(acc, 0x8086, 0x3ce0, d, 4, op_why, sizeof op_why), 2,
		     "SNB-EP: a UBox per socket");
	CHECK_EQ_INT(wrmsr(0, 0x391, 0), PMON_EIO, "SNB-EP has no Nehalem global control");
}

int main(void)
{
	defaults();
	ranges();
	identity();
	sim_teardown();
	return check_done("test_sim_nhm_shape");
}
