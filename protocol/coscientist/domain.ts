import { z } from 'zod';

/** The research domains the offline knowledge base covers (issue 13). */
export const DomainSchema = z.enum(['drug_repurposing', 'antimicrobial_resistance', 'liver_fibrosis']);
export type Domain = z.infer<typeof DomainSchema>;
