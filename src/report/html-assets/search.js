// Full-text search over the episode rows (task, group, family, attribution, explanation, failing check) and the inlined details.
