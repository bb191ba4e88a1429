MemcpyHtoD,0x00007f7393700000,32768
kernel-1.traceg
kernel-2.traceg
