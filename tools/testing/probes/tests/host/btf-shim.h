/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What btf-shim.c, the host build's fake BTF, gives the test beyond the
 * kernel's BTF interface (shim/linux/btf.h, shim/trace_btf.h).
 */
#ifndef BTF_SHIM_H
#define BTF_SHIM_H

/* References bpf_find_btf_id() gave that btf_put() has not returned. */
int btf_shim_refs(void);

/* Free the encoded BTF, for LeakSanitizer's report to be about the parser. */
void btf_shim_exit(void);

#endif /* BTF_SHIM_H */
