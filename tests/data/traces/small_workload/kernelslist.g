MemcpyHtoD,0x00007f2b2d500000,400

kernel-1.traceg
MemcpyHtoD,0x00007f2b2d500200,8
kernel-2.traceg
