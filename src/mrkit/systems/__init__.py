"""Systems that need no trained model: the SciCo baselines (Cattan et al. 2021, §4-5).

They build predictions (SciCo topics) that the metrics then score: ``agglomerative``
(average-linkage clustering with a distance threshold), ``levenshtein`` (the
edit-distance baseline), ``hierarchy`` (greedy cycle-free insertion of cluster
relations) and ``two_stage`` (clusters then hierarchy from a pair scorer's
probabilities).
"""
