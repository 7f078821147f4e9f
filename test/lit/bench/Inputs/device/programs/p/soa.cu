// stdout: checksum 1.5
// kernel: 0.250
