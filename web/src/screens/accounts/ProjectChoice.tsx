import { fieldMessages, type ApiProblem, type Schemas } from '../../api/client';
import { FieldMessages } from '../../ui/Field';

/** The projects a member works on, as checkboxes; the API's messages for `projects` and `projects.N` beneath. */
export function ProjectChoice({
  projects,
  chosen,
  onChange,
  problem,
  legend,
}: {
  projects: Schemas['Project'][];
  chosen: string[];
  onChange: (chosen: string[]) => void;
  problem?: ApiProblem;
  legend: string;
}) {
  const messages = fieldMessages(problem, 'projects');
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div className="checks">
        {projects.map((project) => (
          <label key={project.key}>
            <input
              type="checkbox"
              checked={chosen.includes(project.key)}
              onChange={(e) => onChange(e.target.checked ? [...chosen, project.key] : chosen.filter((k) => k !== project.key))}
            />{' '}
            {project.name} <code>{project.key}</code>
          </label>
        ))}
      </div>
      {projects.length === 0 ? <p>No projects yet.</p> : null}
      <FieldMessages messages={messages} />
    </fieldset>
  );
}
