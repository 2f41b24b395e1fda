// What cli.ts reports for a write (or read) the disk refused in any command (exit 5): the results folder's disk errors.
export { DISK_FAULT_EXIT_CODE, diskFaultCode, DiskReadError, DiskWriteError } from '../results-folder/index.js';
