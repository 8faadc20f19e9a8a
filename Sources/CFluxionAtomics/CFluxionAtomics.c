// The functions are `static inline`, in the header.
#include "CFluxionAtomics.h"
