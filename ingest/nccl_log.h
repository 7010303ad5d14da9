/*
 * nccl_log: the reader of NCCL debug output (NCCL_DEBUG=INFO/WARN) and of
 * the NCCL errors PyTorch prints, found in any text file whatever prefix a
 * launcher put before them. It fills the run's nccl_version, transport and
 * link facts (and logged.gpus from the largest communicator) and, for
 * `inspect`, an "nccl" object:
 *
 *   version      "2.23.4" (the +cudaX.Y build suffix goes to cuda_build)
 *   cuda_driver  "12.8" from cudaDriverVersion 12080
 *   nranks       largest communicator size seen in init or COLL lines
 *   nnodes       from "nRanks N nNodes K" (2.20+); null when not printed
 *   comms        one object per communicator rank of the init lines of every
 *                era: rank, nranks, cuda_dev, nvml_dev, bus_id, comm_id,
 *                state (started|complete|destroyed|aborted)
 *   transports   distinct transports of channel/ring lines, NVLS and CollNet
 *                lines and a "N nvls channels" count above 0, in order seen:
 *                p2p, shm, net-ib, net-socket, net-ofi, nvls, collnet
 *   link         nvlink|pcie when the log says so (NVLS, MNNVL, multicast
 *                support, a graph "type NVL/..." line, a topology "+ NVL[bw]"
 *                line), network when every transport was a network one; null
 *                otherwise (P2P alone does not say which)
 *   nvlink_bw_gbs  the largest "+ NVL[bw]" of the topology dump; null none
 *   nvlinks, nvlink_gen  the links and NVLink generation that explain it,
 *                where exactly one generation does; null otherwise
 *   settings     NCCL_* name -> value as echoed ("... set by environment to
 *                1"), first value of each; also the run's nccl_env
 *   collectives  COLL lines aggregated by op, dtype and count, with calls
 *   warnings     NCCL WARN lines; errors: NCCL errors and watchdog timeouts
 *
 * WARN lines, errors and timeouts are also diagnostics (nccl-warn,
 * nccl-error, nccl-timeout) at their file:line; a setting that turns a
 * transport off (NCCL_P2P_DISABLE=1, ...) is a note, nccl-env-disabled.
 */
#ifndef INGEST_NCCL_LOG_H
#define INGEST_NCCL_LOG_H

#include "ingest/reader.h"

extern const struct reader nccl_log_reader;

#endif
