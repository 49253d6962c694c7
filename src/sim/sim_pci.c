/*
 * sim_pci.c - PCI configuration space: the uncore functions on each
 * package's bus, their IDs and header, and which registers a write may
 * reach.  Functions are listed in ascending (dev, func) order.  An address
 * finds its function directly: bus -> package (sim->bus_socket), then
 * (dev, func) -> function through a 256-entry index built when the library
 * is loaded.
 */
#include "sim_log.h"
#include "sim_space.h"

#define INTEL 0x8086

enum fn_type { FN_QPI, FN_QPI_MM, FN_UBOX, FN_HA, FN_IMC, FN_R2PCIE, FN_R3QPI };

/* class code dword (0x08): class 0x11/0x01 "performance counters" or
 * 0x08/0x80 "system peripheral", revision 0x07 */
#define CLASS_PMON  0x11010007u
#define CLASS_OTHER 0x08800007u

static const struct fn_def {
	uint8_t dev, func;
	uint16_t devid;
	uint32_t class_rev;
	enum fn_type type;
	int inst;
} fns[] = {
	{  8, 2, 0x3c41, CLASS_PMON,  FN_QPI,    0 },
	{  8, 6, 0x3c86, CLASS_OTHER, FN_QPI_MM, 0 },
	{  9, 2, 0x3c42, CLASS_PMON,  FN_QPI,    1 },
	{  9, 6, 0x3c96, CLASS_OTHER, FN_QPI_MM, 1 },
	{ 11, 0, 0x3ce0, CLASS_OTHER, FN_UBOX,   0 },
	{ 14, 1, 0x3c46, CLASS_PMON,  FN_HA,     0 },
	{ 16, 0, 0x3cb0, CLASS_OTHER, FN_IMC,    0 },
	{ 16, 1, 0x3cb1, CLASS_OTHER, FN_IMC,    1 },
	{ 16, 4, 0x3cb4, CLASS_OTHER, FN_IMC,    2 },
	{ 16, 5, 0x3cb5, CLASS_OTHER, FN_IMC,    3 },
	{ 19, 1, 0x3c43, CLASS_PMON,  FN_R2PCIE, 0 },
	{ 19, 5, 0x3c44, CLASS_PMON,  FN_R3QPI,  0 },
	{ 19, 6, 0x3c45, CLASS_PMON,  FN_R3QPI,  1 },
};
#define NFNS (sizeof fns / sizeof fns[0])

static int fn_exists(const struct pmon_sim *sim, const struct fn_def *f)
{
	return f->type != FN_IMC || f->inst < sim->shape.channels;
}

/* fn_at[dev << 3 | func]: 1 + the index in fns[], 0 for no function */
static uint8_t fn_at[256];

__attribute__((constructor)) static void fn_at_build(void)
{
	for (size_t i = 0; i < NFNS; i++)
		fn_at[(fns[i].dev & 31) << 3 | (fns[i].func & 7)] = (uint8_t)(i + 1);
}

static const struct fn_def *lookup(struct pmon_sim *sim, pmon_pci_addr_t d,
				   struct sim_socket **sock)
{
	const struct fn_def *f;
	int s, i;

	if (d.domain != 0 || d.dev > 31 || d.func > 7 || (s = sim->bus_socket[d.bus]) < 0)
		return NULL;
	if (!(i = fn_at[d.dev << 3 | d.func]) || !fn_exists(sim, f = &fns[i - 1]))
		return NULL;
	*sock = &sim->sock[s];
	return f;
}

static struct sim_box *fn_box(struct sim_socket *s, const struct fn_def *f)
{
	switch (f->type) {
	case FN_QPI:
	case FN_QPI_MM: return &s->qpi[f->inst];
	case FN_HA: return &s->ha;
	case FN_IMC: return &s->imc[f->inst];
	case FN_R2PCIE: return &s->r2pcie;
	case FN_R3QPI: return &s->r3qpi[f->inst];
	default: return NULL;
	}
}

static int check_off(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off)
{
	if (off > 0xFFC || (off & 3))
		return sim_fail(sim, PMON_EINVAL,
				"PCI %04x:%02x:%02x.%x: offset 0x%x is not a dword in 0..0xFFF",
				d.domain, d.bus, d.dev, d.func, off);
	return 0;
}

int sim_pci_read(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t *val)
{
	struct sim_socket *s = NULL;
	const struct fn_def *f = lookup(sim, d, &s);
	struct sim_box *b;
	int rc;

	*val = 0;
	if (!f)
		return sim_fail(sim, PMON_ENODEV, "PCI %04x:%02x:%02x.%x does not exist",
				d.domain, d.bus, d.dev, d.func);
	if ((rc = check_off(sim, d, off)))
		return rc;
	if (off == 0x00) {
		*val = INTEL | ((uint32_t)f->devid << 16);
		return 0;
	}
	if (off == 0x08) {
		*val = f->class_rev;
		return 0;
	}
	if (off == 0x0C) {
		*val = 0x00800000u;           /* header type 0x80: multi-function */
		return 0;
	}
	b = fn_box(s, f);
	switch (f->type) {
	case FN_UBOX:
		sim_ubox_pci_read(sim, s, off, val);
		break;
	case FN_HA:
		sim_ha_read(b, off, val);
		break;
	case FN_QPI_MM:
		sim_qpi_mm_read(b, off, val);
		break;
	default:
		sim_pcibox_read(b, off, val);
		break;
	}
	return 0;                             /* undefined offsets read 0 */
}

const struct sim_box *sim_pci_pmon_block(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off,
					 int ndw)
{
	struct sim_socket *s = NULL;
	const struct fn_def *f;

	if (off < SIM_PCIBOX_BLOCK || (off & 3) || off > 0xFFC || ndw <= 0 ||
	    (uint32_t)ndw > (0x1000 - off) / 4 || !(f = lookup(sim, d, &s)) ||
	    f->type == FN_UBOX || f->type == FN_QPI_MM)
		return NULL;
	return fn_box(s, f);
}

int sim_pci_write(struct pmon_sim *sim, pmon_pci_addr_t d, uint32_t off, uint32_t val)
{
	struct sim_socket *s = NULL;
	const struct fn_def *f = lookup(sim, d, &s);
	struct sim_box *b;
	int ok = 0, rc;

	if (!f)
		return sim_fail(sim, PMON_ENODEV, "PCI %04x:%02x:%02x.%x does not exist",
				d.domain, d.bus, d.dev, d.func);
	if ((rc = check_off(sim, d, off)))
		return rc;
	b = fn_box(s, f);
	switch (f->type) {
	case FN_UBOX:
		break;                        /* nothing writable for PMON */
	case FN_HA:
		ok = sim_ha_write(sim, b, off, val);
		break;
	case FN_QPI_MM:
		ok = sim_qpi_mm_write(sim, b, off, val);
		break;
	default:
		ok = sim_pcibox_write(sim, b, off, val);
		break;
	}
	if (!ok)
		return sim_fail(sim, PMON_EIO,
				"PCI %04x:%02x:%02x.%x (%04x): offset 0x%x is not a PMON register; write refused",
				d.domain, d.bus, d.dev, d.func, f->devid, off);
	return 0;
}

int sim_pci_find(struct pmon_sim *sim, uint16_t vendor, uint16_t device,
		 pmon_pci_addr_t *out, int max)
{
	int n = 0;

	if (vendor != INTEL)
		return 0;
	for (int bus = 0; bus < 256; bus++) {
		if (sim->bus_socket[bus] < 0)
			continue;
		for (size_t i = 0; i < NFNS; i++) {
			if (fns[i].devid != device || !fn_exists(sim, &fns[i]))
				continue;
			if (n < max && out) {
				out[n].domain = 0;
				out[n].bus = (uint8_t)bus;
				out[n].dev = fns[i].dev;
				out[n].func = fns[i].func;
			}
			n++;
		}
	}
	return n;
}
