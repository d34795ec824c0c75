import { ValidationError } from '../../http/errors.js';

/** 422 on `key`: segment keys are unique within a project. */
export function duplicateKey(key: string): ValidationError {
  return ValidationError.field('key', `The key "${key}" is already used by another segment of this project.`, 'already_exists');
}
