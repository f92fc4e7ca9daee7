# R msm's fit of a 3-state continuous-time HMM with log-normal emissions to a
# (time, latency) CSV, started from rough guesses of the three latency levels
# (the 20 %, 80 % and 97 % quantiles of ln y); prints seconds, ln L and the estimates.
# usage: Rscript bench/hmm_msm.R TRACE.csv
suppressMessages(library(msm))
trace <- read.csv(commandArgs(trailingOnly = TRUE)[1])
trace$subject <- 1
q0 <- matrix(1e-4, 3, 3)
diag(q0) <- 0
guess <- quantile(log(trace$latency), c(0.2, 0.8, 0.97))
started <- Sys.time()
fit <- msm(latency ~ time, subject = subject, data = trace, qmatrix = q0,
           hmodel = list(hmmLNorm(guess[1], 0.1), hmmLNorm(guess[2], 0.1), hmmLNorm(guess[3], 0.2)),
           control = list(maxit = 10000, fnscale = 50000))
seconds <- as.numeric(difftime(Sys.time(), started, units = "secs"))
cat(sprintf("msm %s: %.2f s, ln L %.3f\n", packageVersion("msm"), seconds, -fit$minus2loglik / 2))
cat("meanlog/sdlog:", sprintf("%.4f", fit$hmodel$pars), "\n")
cat("exit rates:", sprintf("%.3g", -diag(qmatrix.msm(fit, ci = "none"))), "\n")
