kernel-1.traceg

MemcpyHtoD,0x10
